"""Under each AI answer on ``/help/``: did it solve the problem? (issue 25, part 3)

Given a customer's conversation the AI answered, when they press "solved" or "not solved"
(with a rating and a comment, or not), then their word is recorded for that answer, the page
thanks them in their language, and "not solved" passes the conversation to the staff; nobody
else can answer for them, and bad input is refused beside the answer with nothing stored.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import AnswerFeedback, Escalation, Inquiry, InquiryStatus, MessageAuthor
from agents.support.vocabulary import NOT_SOLVED, Skill
from netshop.models import Customer
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import signed_in, staff_user
from tests.support.reviews import ai_resolved

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert(1)</script>"


def customer_with_login(username: str, *, language: str = "ja") -> tuple[User, Customer]:
    user = User.objects.create_user(username, password="x")
    return user, CustomerFactory.create(user=user, language=language)


def feedback_url(inquiry: Inquiry, message_id: object = None) -> str:
    answer = message_id or inquiry.messages.get(author_kind=MessageAuthor.AI).pk
    return f"/help/inquiries/{inquiry.pk}/messages/{answer}/feedback"


def press(client: Client, inquiry: Inquiry, solved: str, **extra: Any) -> Any:
    return client.post(feedback_url(inquiry), {"solved": solved, **extra})


@pytest.mark.parametrize(
    ("language", "question", "buttons"),
    [
        ("ja", "この回答で解決しましたか？", ("解決した", "解決しなかった")),
        ("en", "Did this answer solve your problem?", ("Solved", "Not solved")),
    ],
)
def test_each_ai_answer_asks_in_the_customers_language(
    language: str, question: str, buttons: tuple[str, str]
) -> None:
    user, customer = customer_with_login("c1", language=language)
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)

    text = signed_in(user).get("/help/").content.decode()

    assert text.count('class="feedback-form"') == 2  # the AI answer's, and the live template's
    assert f'action="{feedback_url(inquiry)}"' in text
    assert question in text
    assert all(f">{label}</button>" in text for label in buttons)


def test_not_solved_is_recorded_and_the_page_says_the_staff_will_look(
    django_assert_max_num_queries: Any,
) -> None:
    user, customer = customer_with_login("c1")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)
    client = signed_in(user)

    response = press(client, inquiry, "no", rating="2", comment=HOSTILE)

    answer = inquiry.messages.get(author_kind=MessageAuthor.AI)
    assert response.status_code == 302
    assert response["Location"] == f"/help/?sent={inquiry.pk}#message-{answer.pk}"
    row = AnswerFeedback.objects.get()
    assert (row.message, row.solved, row.rating, row.comment, row.channel) == (
        answer,
        False,
        2,
        HOSTILE,
        "help",
    )
    assert Escalation.objects.get().reason == NOT_SOLVED
    with django_assert_max_num_queries(12):
        page = client.get("/help/").content.decode()
    assert "担当スタッフが確認し、こちらでご返信いたします" in page
    assert ">スタッフに引き継ぎました<" in page  # the conversation's status: a person has it
    assert 'class="feedback-form"' not in page.split('id="feedback-template"')[0]
    assert HOSTILE not in page  # never shown back, and inert if it were


def test_solved_thanks_an_english_customer_in_english() -> None:
    user, customer = customer_with_login("c1", language="en")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)
    client = signed_in(user)

    press(client, inquiry, "yes")

    assert AnswerFeedback.objects.get().solved is True
    assert "you told us this answer solved your problem" in client.get("/help/").content.decode()
    assert Inquiry.objects.get(pk=inquiry.pk).status == InquiryStatus.RESOLVED


def test_a_second_different_answer_is_refused_beside_the_answer() -> None:
    user, customer = customer_with_login("c1", language="en")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)
    client = signed_in(user)
    press(client, inquiry, "yes")

    same = press(client, inquiry, "yes")
    different = press(client, inquiry, "no")

    assert same.status_code == 302  # a double click: the answer already recorded
    assert different.status_code == 409
    assert (
        "You already told us whether this answer solved your problem" in different.content.decode()
    )
    assert list(AnswerFeedback.objects.values_list("solved", flat=True)) == [True]
    assert not Escalation.objects.exists()


@pytest.mark.parametrize(
    "form",
    [
        {"solved": "no", "rating": "0"},
        {"solved": "no", "rating": "6"},
        {"solved": "maybe"},
        {"solved": "no", "comment": "x" * 1001},
    ],
)
def test_bad_input_is_refused_with_422_and_stores_nothing(form: dict[str, str]) -> None:
    user, customer = customer_with_login("c1")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)

    response = signed_in(user).post(feedback_url(inquiry), form)

    assert response.status_code == 422
    assert 'class="error feedback-error"' in response.content.decode()
    assert not AnswerFeedback.objects.exists()
    assert not Escalation.objects.exists()


def test_another_customer_cannot_answer_for_the_customer() -> None:
    _, owner = customer_with_login("c1")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, owner)
    intruder, _ = customer_with_login("c2")

    response = press(signed_in(intruder), inquiry, "no")

    assert response.status_code == 404
    assert not AnswerFeedback.objects.exists()


def test_the_customers_own_message_takes_no_verdict() -> None:
    user, customer = customer_with_login("c1", language="en")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)
    own = inquiry.messages.get(author_kind=MessageAuthor.CUSTOMER).pk

    response = signed_in(user).post(feedback_url(inquiry, own), {"solved": "no"})

    assert response.status_code == 422
    assert "Only an answer from our assistant can be rated." in response.content.decode()
    assert not AnswerFeedback.objects.exists()


@pytest.mark.parametrize("role", [Role.OPERATOR, Role.MANAGER])
def test_staff_cannot_answer_for_a_customer(role: Role) -> None:
    _, customer = customer_with_login("c1")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)

    response = press(signed_in(staff_user("staff1", role)), inquiry, "no")

    assert response.status_code == 403
    assert not AnswerFeedback.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in() -> None:
    _, customer = customer_with_login("c1")
    inquiry = ai_resolved(Skill.SEARCH_FAQ, customer)

    response = press(Client(), inquiry, "no")

    assert response.status_code == 302
    assert not AnswerFeedback.objects.exists()
