"""The dashboard's customers' word (issue 25, part 3): per intent and overall, the share of AI
answers the customers marked solved and not solved agrees with a hand count of the feedback
rows, and "resolved by the AI" no longer counts a conversation marked not solved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from agents.models import AnswerFeedback, Inquiry, MessageAuthor
from agents.support.escalations.customer_feedback import Feedback, answer_feedback_give
from agents.support.vocabulary import Skill
from netshop.roles import Role
from operators.audit import support
from operators.audit.selectors import Window
from tests.operators.api_helpers import signed_in, staff_user
from tests.support.reviews import ai_resolved

pytestmark = pytest.mark.django_db

# Per intent: how many answers the customers marked solved, and not solved.
WORDS: dict[str, tuple[int, int]] = {
    Skill.SEARCH_FAQ: (5, 2),
    Skill.TRACK_SHIPMENT: (1, 2),
    Skill.ISSUE_RECEIPT: (3, 0),
}


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("mgr", Role.MANAGER))


def say(inquiry: Inquiry, *, solved: bool, rating: int | None = None) -> None:
    answer = inquiry.messages.get(author_kind=MessageAuthor.AI)
    answer_feedback_give(
        customer=inquiry.customer,
        inquiry_id=inquiry.pk,
        message_id=answer.pk,
        feedback=Feedback(solved=solved, rating=rating),
    )


@pytest.fixture
def words() -> None:
    for intent, (solved, not_solved) in WORDS.items():
        for n in range(solved):
            say(ai_resolved(intent), solved=True, rating=5 - n % 2)
        for _ in range(not_solved):
            say(ai_resolved(intent), solved=False)
    ai_resolved(Skill.SEARCH_FAQ)  # an answer nobody rated counts in no share


def hand_count() -> dict[str, tuple[int, int, int]]:
    """Per intent, from the rows themselves: (rated, solved, not solved)."""
    counts: dict[str, list[int]] = {}
    for row in AnswerFeedback.objects.all():
        seen = counts.setdefault(row.intent, [0, 0, 0])
        seen[0] += 1
        seen[1 if row.solved else 2] += 1
    return {intent: (n, s, ns) for intent, (n, s, ns) in counts.items()}


def shown(share: float) -> str:
    return f"{int(share * 1000) / 10:.1f}%"


def test_the_solved_shares_agree_with_a_hand_count(words: None, manager: Client) -> None:
    table = manager.get("/audit/dashboard/?days=30").context["support"]["customers_word"]

    counted = hand_count()
    assert counted == {
        "search_faq": (7, 5, 2),
        "track_shipment": (3, 1, 2),
        "issue_receipt": (3, 3, 0),
    }
    rows = {r["intent"]: r for r in table["rows"]}
    assert {i: (r["answered"], r["solved"], r["not_solved"]) for i, r in rows.items()} == counted
    for intent, (n, solved, not_solved) in counted.items():
        assert (rows[intent]["solved_share"], rows[intent]["not_solved_share"]) == (
            shown(solved / n),
            shown(not_solved / n),
        )
    overall = table["overall"]
    assert (overall["answered"], overall["solved"], overall["not_solved"]) == (13, 9, 4)
    assert (overall["solved_share"], overall["not_solved_share"]) == ("69.2%", "30.7%")


def test_the_dashboard_shows_them_in_the_managers_language(words: None, manager: Client) -> None:
    english = manager.get("/audit/dashboard/?days=30").content.decode()
    japanese = manager.get("/audit/dashboard/?days=30", HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert "AI quality: the customers' word" in english
    assert '<td class="not-solved">66.6% (2)</td>' in english  # track_shipment
    assert "AIの品質：お客様の評価" in japanese


def test_resolved_by_the_ai_drops_when_the_customer_says_not_solved() -> None:
    window = Window.ending_today(30)
    first, second = ai_resolved(Skill.SEARCH_FAQ), ai_resolved(Skill.SEARCH_FAQ)
    before = support.ai_resolution(window)

    say(first, solved=True)
    after_solved = support.ai_resolution(window)
    say(second, solved=False)
    after_not_solved = support.ai_resolution(window)

    assert (before.by_ai, before.not_solved) == (2, 0)
    assert (after_solved.by_ai, after_solved.not_solved) == (2, 0)
    assert (after_not_solved.received, after_not_solved.by_ai) == (2, 1)
    assert after_not_solved.not_solved == 1
    assert after_not_solved.share == 50


def test_the_not_solved_figure_links_to_its_conversation(manager: Client) -> None:
    unsolved, solved = ai_resolved(Skill.SEARCH_FAQ), ai_resolved(Skill.SEARCH_FAQ)
    say(unsolved, solved=False)
    say(solved, solved=True)
    figures = manager.get("/audit/dashboard/?days=30").context["support"]

    entries: list[Any] = list(manager.get(figures["not_solved_href"]).context["page"].entries)

    assert {e.inquiry_id for e in entries} == {unsolved.pk}
    assert [e.action for e in entries] == ["answer.feedback"]


def test_a_period_without_feedback_says_so(manager: Client) -> None:
    html = manager.get("/audit/dashboard/?days=30").content.decode()

    assert "No customer said whether an answer solved their problem in this period." in html
