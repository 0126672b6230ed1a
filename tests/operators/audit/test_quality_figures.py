"""The dashboard's measured AI quality (issue 25, part 5): the accuracy figures agree with a
hand count from the review rows, and "resolved by the AI" drops when an answer is reviewed
wrong."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import AnswerReview
from agents.support.escalations.answer_reviews import Verdict, answer_review_record
from agents.support.vocabulary import Skill
from netshop.roles import Role
from operators.audit import support
from operators.audit.quality import wilson_interval
from operators.audit.selectors import Window
from tests.operators.api_helpers import signed_in, staff_user
from tests.support.reviews import ai_resolved, reviewed, sampled_review

pytestmark = pytest.mark.django_db

# Per intent: (correct, wrong with these reasons).
VERDICTS: dict[str, tuple[int, list[str]]] = {
    Skill.SEARCH_FAQ: (5, ["wrong_facts"]),
    Skill.TRACK_SHIPMENT: (2, ["tone", "wrong_facts", "did_not_answer"]),
    Skill.ISSUE_RECEIPT: (80, []),
}


@pytest.fixture
def reviewer() -> User:
    return staff_user("rev", Role.OPERATOR)


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("mgr", Role.MANAGER))


@pytest.fixture
def reviews(reviewer: User) -> None:
    for intent, (correct, wrong) in VERDICTS.items():
        for _ in range(correct):
            reviewed(intent, "correct", reviewer)
        for reason in wrong:
            reviewed(intent, "wrong", reviewer, reason)


def hand_count() -> dict[str, tuple[int, int]]:
    """Per intent, from the rows themselves: (reviewed, correct)."""
    counts: dict[str, list[int]] = {}
    for review in AnswerReview.objects.all():
        seen = counts.setdefault(review.intent, [0, 0])
        seen[0] += 1
        seen[1] += review.verdict == "correct"
    return {intent: (n, correct) for intent, (n, correct) in counts.items()}


def shown(share: float) -> str:
    return f"{int(share * 1000) / 10:.1f}%"


def test_the_accuracy_figures_agree_with_a_hand_count(reviews: None, manager: Client) -> None:
    response = manager.get("/audit/dashboard/?days=30")
    table = response.context["support"]["quality"]

    counted = hand_count()
    assert {row["intent"]: (row["reviews"], row["correct"]) for row in table["rows"]} == counted
    for row in table["rows"]:
        n, correct = counted[row["intent"]]
        low, high = wilson_interval(correct, n) or (0.0, 0.0)
        assert (row["accuracy"], row["low"], row["high"]) == (
            shown(correct / n),
            shown(low),
            shown(high),
        )
    total_n = sum(n for n, _ in counted.values())
    total_correct = sum(c for _, c in counted.values())
    assert (table["overall"]["reviews"], table["overall"]["correct"]) == (total_n, total_correct)
    assert table["overall"]["accuracy"] == shown(total_correct / total_n)
    wrong = Counter(r.reason for r in AnswerReview.objects.filter(verdict="wrong"))
    assert dict(support.reviewed_quality(Window.ending_today(30)).wrong_by_reason) == wrong


def test_the_dashboard_says_which_intents_support_more_autonomy_or_need_less(
    reviews: None, manager: Client
) -> None:
    rows = manager.get("/audit/dashboard/?days=30").context["support"]["quality"]["rows"]
    advice = {row["intent"]: row["recommendation"] for row in rows}

    # 80 of 80: lower bound 95.4%; 5 of 6 is 83%, 2 of 5 is 40%.
    assert advice == {"issue_receipt": "more", "search_faq": "less", "track_shipment": "less"}
    html = manager.get("/audit/dashboard/?days=30").content.decode()
    assert "supports more autonomy" in html
    assert "needs less autonomy" in html
    assert 'data-intent="issue_receipt" data-recommendation="more"' in html


def test_resolved_by_the_ai_drops_when_an_answer_is_reviewed_wrong(reviewer: User) -> None:
    window = Window.ending_today(30)
    first, second = (sampled_review(ai_resolved(Skill.SEARCH_FAQ)) for _ in range(2))
    ai_resolved(Skill.TRACK_SHIPMENT)
    before = support.ai_resolution(window)

    answer_review_record(escalation_id=first.pk, user=reviewer, verdict=Verdict("correct"))
    after_correct = support.ai_resolution(window)
    answer_review_record(
        escalation_id=second.pk, user=reviewer, verdict=Verdict("wrong", "wrong_facts")
    )
    after_wrong = support.ai_resolution(window)

    assert (before.received, before.by_ai, before.reviewed_wrong) == (3, 3, 0)
    assert (after_correct.by_ai, after_correct.reviewed_wrong) == (3, 0)
    assert (after_wrong.by_ai, after_wrong.reviewed_wrong) == (2, 1)
    assert after_wrong.share == 67


def test_the_reviewed_wrong_figure_links_to_its_conversation(
    reviewer: User, manager: Client
) -> None:
    wrong = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    answer_review_record(
        escalation_id=wrong.pk, user=reviewer, verdict=Verdict("wrong", "tone", "冷たい言い方")
    )
    figures = manager.get("/audit/dashboard/?days=30").context["support"]

    page = manager.get(figures["reviewed_wrong_href"]).context
    entries: list[Any] = list(page["page"].entries)
    resolved: list[Any] = list(manager.get(figures["ai_href"]).context["page"].entries)

    assert {e.inquiry_id for e in entries} == {wrong.inquiry_id}
    assert [e.action for e in entries] == ["answer.reviewed"]
    assert [r["row"].staff_text for r in page["rows"]] == ["冷たい言い方"]  # managers read it
    assert wrong.inquiry_id not in {e.inquiry_id for e in resolved}


def test_a_period_without_reviews_shows_no_figures(manager: Client) -> None:
    html = manager.get("/audit/dashboard/?days=30").content.decode()

    assert "No answer was reviewed in this period." in html


def test_a_japanese_manager_reads_the_quality_figures_in_japanese(
    reviews: None, manager: Client
) -> None:
    html = manager.get("/audit/dashboard/?days=30", HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert "AI の品質: レビューした回答" in html
    assert "95% 区間" in html
    assert "自律の拡大を支持" in html
    assert "自律の縮小が必要" in html
