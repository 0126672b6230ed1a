"""Suggest as article (issue 27, part 3): an operator's answer in a conversation becomes the
draft of a new help article, with the customer's question before it, the customer's details
taken out; once per answer; operators suggest, managers edit and publish."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import MessageAuthor
from agents.support.conversations.messages import message_store
from netshop.knowledge.models import ArticleStatus, ArticleVersion, HelpArticle
from operators.knowledge.suggestions import article_suggest, exchange_of
from operators.models import ArticleSuggestion
from tests.factories import CustomerFactory
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.knowledge.conversations import exchange

pytestmark = pytest.mark.django_db

QUESTION = "山田です。ORD-4711のギフト包装はできますか？ 連絡先は taro@example.com です。"
ANSWER = "山田様、ORD-4711はギフト包装を1点330円で承ります。"


def test_the_draft_holds_the_question_and_the_answer_without_the_customers_details(
    operator: User,
) -> None:
    customer = CustomerFactory.create(name="山田 太郎", email="taro@example.com", language="ja")
    answer = exchange(question=QUESTION, answer=ANSWER, operator=operator, customer=customer)

    suggestion = article_suggest(message_id=answer.pk, user=operator)

    draft = ArticleVersion.objects.get(article=suggestion.article)
    assert (draft.status, draft.language, draft.created_by) == (ArticleStatus.DRAFT, "ja", operator)
    # The name the shop knows goes first, as a customer detail; the honorific stays.
    assert draft.body == "［お客様情報］様、［注文番号］はギフト包装を1点330円で承ります。"
    assert draft.title == (
        "［お客様情報］です。［注文番号］のギフト包装はできますか？ 連絡先は ［お客様情報］ です。"
    )
    assert "taro" not in draft.title + draft.body + "".join(draft.questions)


def test_the_question_is_what_the_customer_wrote_since_the_answer_before(operator: User) -> None:
    first = exchange(question="送料はいくらですか？", answer="550円です。", operator=operator)
    inquiry = first.inquiry
    for text in ("もう一つ質問です。", "ギフト包装はできますか？"):
        message_store(inquiry=inquiry, author_kind=MessageAuthor.CUSTOMER, text=text, channel="web")
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.NOTE,
        text="内部メモ",
        channel="web",
        author=operator,
    )
    second = message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.OPERATOR,
        text="できます。",
        channel="web",
        author=operator,
    )

    assert exchange_of(second) == ("もう一つ質問です。\nギフト包装はできますか？", "できます。")


def test_suggesting_the_same_answer_twice_opens_the_same_draft(
    operator: User, manager: User
) -> None:
    answer = exchange(question="ギフト包装は？", answer="できます。", operator=operator)

    first = article_suggest(message_id=answer.pk, user=operator)
    again = article_suggest(message_id=answer.pk, user=manager)

    assert again.pk == first.pk
    assert (HelpArticle.objects.count(), ArticleSuggestion.objects.count()) == (1, 1)


def test_an_operator_suggests_and_goes_back_a_manager_is_taken_to_the_draft(
    operator: User, manager: User
) -> None:
    answer = exchange(question="ギフト包装は？", answer="できます。", operator=operator)
    other = exchange(question="のし紙は？", answer="承ります。", operator=operator)

    by_operator = signed_in(operator).post(f"/knowledge/suggestions/{answer.pk}")
    by_manager = signed_in(manager).post(f"/knowledge/suggestions/{other.pk}")

    assert by_operator["Location"] == f"/console/conversations/{answer.inquiry_id}/"
    article = ArticleSuggestion.objects.get(message=other).article
    assert by_manager["Location"] == f"/knowledge/articles/{article.pk}/"
    assert signed_in(operator).get(by_manager["Location"]).status_code == 403  # managers edit


def test_only_an_operators_answer_can_be_suggested(operator: User) -> None:
    answer = exchange(question="ギフト包装は？", answer="できます。", operator=operator)
    question = answer.inquiry.messages.get(author_kind=MessageAuthor.CUSTOMER)

    response = signed_in(operator).post(f"/knowledge/suggestions/{question.pk}")

    assert response.status_code == 404
    assert not HelpArticle.objects.exists()


def test_a_customer_may_not_suggest(operator: User) -> None:
    answer = exchange(question="ギフト包装は？", answer="できます。", operator=operator)

    response = signed_in(staff_user("hanako", None)).post(f"/knowledge/suggestions/{answer.pk}")

    assert response.status_code == 403
    assert not HelpArticle.objects.exists()


def test_the_conversation_page_offers_the_button_on_operator_answers_only(operator: User) -> None:
    answer = exchange(question="ギフト包装は？", answer="できます。", operator=operator)

    page = signed_in(operator).get(f"/console/conversations/{answer.inquiry_id}/").content.decode()

    assert page.count('class="inline suggest-article"') == 1
    assert f'action="/knowledge/suggestions/{answer.pk}"' in page
