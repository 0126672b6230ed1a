"""Small named scenes for the knowledge tests: exchanges in a conversation, and AI answers
that did or did not rest on an article."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from agents.models import AnswerFeedback, Inquiry, Message, MessageAuthor
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.messages import message_store
from netshop.models import Customer
from tests.factories import CustomerFactory
from tests.support.reviews import answer_grounds


def exchange(
    *, question: str, answer: str, operator: User, customer: Customer | None = None
) -> Message:
    """A customer's question and an operator's answer to it; the answer."""
    inquiry = inquiry_create(
        customer=customer or CustomerFactory.create(), text=question, start=False
    )
    return message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.OPERATOR,
        author=operator,
        text=answer,
        channel="web",
    )


def ai_answer(
    question: str,
    *,
    intent: str = "search_faq",
    article_quoted: bool = False,
    solved: bool | None = None,
    ago: dt.timedelta = dt.timedelta(hours=1),
    language: str = "ja",
) -> Message:
    """A customer's question taken by turn 1 and the AI's answer to it, ``ago``; quoting an
    article's text or not, and with the customer's word on it when ``solved`` is given."""
    at = timezone.now() - ago
    inquiry: Inquiry = inquiry_create(customer=CustomerFactory.create(), text=question, start=False)
    inquiry.messages.update(turn=1, created_at=at)
    grounds: Any = answer_grounds(intent, language)
    grounds["records"]["faq"] = [
        {
            "id": 1,
            "question": "返品について",
            "quoted": article_quoted,
            "article": "returns",
            "version": 1,
        }
    ]
    answer = message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text="回答です。",
        channel="web",
        turn=1,
        grounds=grounds,
        language=language,
    )
    Message.objects.filter(pk=answer.pk).update(created_at=at)
    if solved is not None:
        AnswerFeedback.objects.create(
            message=answer, inquiry=inquiry, turn=1, intent=intent, solved=solved
        )
    return answer
