"""From a good answer to an article: an operator's answer in a conversation becomes the draft
of a new help article, the customer's details taken out, for a manager to edit and publish.

Any member of staff may suggest (operators see the good answers first); only managers edit
and publish (the article pages are theirs). A message is suggested once: the second press
finds the draft the first one wrote (``ArticleSuggestion``'s unique message).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from uuid import UUID

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from agents.models import Message, MessageAuthor
from netshop.errors import DomainError
from netshop.knowledge.models import ArticleCategory
from netshop.knowledge.services import TITLE_LIMIT
from netshop.models import AddressChange, Customer, ReceiptIssue
from operators.knowledge.articles import ArticleText, article_write
from operators.knowledge.redaction import customer_details_stripped
from operators.models import ArticleSuggestion

TITLE_CHARS: Final = min(120, TITLE_LIMIT)  # a title is the question's first line, cut to this


def article_suggest(*, message_id: UUID | str, user: User) -> ArticleSuggestion:
    """The draft made from the operator's answer ``message_id`` and the customer's question
    before it, in the conversation's language; the one already made, if any."""
    message = _operator_answer(message_id)
    existing = ArticleSuggestion.objects.filter(message=message).first()
    if existing is not None:
        return existing
    question, answer = exchange_of(message)
    customer = message.inquiry.customer
    language = message.language or customer.language
    known = known_details(customer)
    asked = customer_details_stripped(question, language=language, known=known)
    told = customer_details_stripped(answer, language=language, known=known)
    try:
        with transaction.atomic():
            article = article_write(
                key=f"suggested-{message.pk.hex[:12]}",
                category=ArticleCategory.OTHER,
                tags=(),
                language=language,
                text=ArticleText(
                    title=_title(asked or told), body=told, questions=(asked,) if asked else ()
                ),
                user=user,
            )
            return ArticleSuggestion.objects.create(
                message=message, article=article, suggested_by=user
            )
    except (IntegrityError, DomainError) as error:
        # Two presses at once: the other one's draft is the suggestion.
        raced = ArticleSuggestion.objects.filter(message=message).first()
        if raced is None:
            raise error
        return raced


def exchange_of(message: Message) -> tuple[str, str]:
    """The customer's question an operator's ``message`` answered (what the customer wrote
    since the answer before it) and the answer itself."""
    before = list(
        Message.objects.filter(inquiry_id=message.inquiry_id, created_at__lte=message.created_at)
        .exclude(pk=message.pk)
        .exclude(author_kind=MessageAuthor.NOTE)
        .order_by("-created_at", "-id")
        .values_list("author_kind", "text")[:20]
    )
    asked: list[str] = []
    for kind, text in before:
        if kind != MessageAuthor.CUSTOMER:
            if asked:
                break
            continue
        asked.append(text)
    return "\n".join(reversed(asked)).strip(), message.text.strip()


def known_details(customer: Customer) -> list[str]:
    """What the shop knows of the customer that an article must not repeat: their name (and
    its parts), code and email, the addresses and addressees they gave."""
    parts = customer.name.replace("\u3000", " ").split()
    addresses = AddressChange.objects.filter(order__customer=customer).values_list(
        "postal_code", "address_line"
    )
    addressees = ReceiptIssue.objects.filter(receipt__order__customer=customer).values_list(
        "addressee", flat=True
    )
    return [
        customer.name,
        *(p for p in parts if len(p) >= 2),
        customer.code,
        customer.email,
        *(value for pair in addresses for value in pair),
        *addressees,
    ]


def suggestions_by_article(article_ids: Iterable[int]) -> dict[int, ArticleSuggestion]:
    """The suggestion each article came from, if it came from one (one query)."""
    chosen = ArticleSuggestion.objects.filter(article_id__in=list(article_ids)).select_related(
        "suggested_by", "message"
    )
    return {s.article_id: s for s in chosen}


def _operator_answer(message_id: UUID | str) -> Message:
    message = (
        Message.objects.select_related("inquiry__customer")
        .filter(pk=message_id, author_kind=MessageAuthor.OPERATOR)
        .first()
    )
    if message is None:
        raise DomainError("message_not_found")
    return message


def _title(text: str) -> str:
    """The text's first line, short enough for a title (the manager rewrites it anyway)."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first if len(first) <= TITLE_CHARS else first[: TITLE_CHARS - 1] + "…"
