"""The knowledge gaps (issue 27, part 3): the questions the AI could not answer from an
article (a help answer quoting none, or one the customer said did not solve their problem),
similar ones counted together, most frequent first; answered ones and other intents left out."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from netshop.roles import Role
from operators.knowledge.gaps import GapReason, Unanswered, gap_groups, knowledge_gaps
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.knowledge.conversations import ai_answer


def asked(
    question: str, minutes_ago: int = 0, reason: GapReason = GapReason.NO_ARTICLE
) -> Unanswered:
    at = timezone.now() - dt.timedelta(minutes=minutes_ago)
    return Unanswered(question, "ja", reason, uuid.uuid4(), at)


def test_the_most_frequent_gap_comes_first_then_the_most_recent() -> None:
    gaps = gap_groups(
        [
            asked("ギフト包装はできますか？", 50),
            asked("のし紙は付けられますか", 1),
            asked("ギフト包装はできますか", 40),
            asked("ギフト包装はできますか？", 30),
            asked("領収書の宛名を変えたい", 20),
        ]
    )

    assert [(g.question, g.count) for g in gaps] == [
        ("ギフト包装はできますか？", 3),
        ("のし紙は付けられますか", 1),
        ("領収書の宛名を変えたい", 1),
    ]


def test_questions_worded_differently_with_the_same_terms_are_one_gap() -> None:
    gaps = gap_groups(
        [
            asked("Can you gift wrap my order?"),
            asked("Do you gift-wrap orders"),
            asked("What is the shipping fee to Okinawa?"),
        ]
    )

    assert [g.count for g in gaps] == [2, 1]


@pytest.mark.django_db
def test_unanswered_and_not_solved_help_questions_are_gaps_and_the_rest_are_not() -> None:
    ai_answer("ギフト包装はできますか？")  # no article quoted
    ai_answer("ギフト包装はできますか？", article_quoted=True, solved=False)
    ai_answer("返品はできますか", article_quoted=True)  # answered
    ai_answer("返品はできますか", article_quoted=True, solved=True)
    ai_answer("ORD-1の配送状況は？", intent="track_shipment")  # not a help question
    ai_answer("ギフト包装はできますか？", ago=dt.timedelta(days=31))  # too long ago

    gaps = knowledge_gaps()

    assert [(g.question, g.count, g.reasons) for g in gaps] == [
        ("ギフト包装はできますか？", 2, [GapReason.NO_ARTICLE, GapReason.NOT_SOLVED])
    ]


@pytest.mark.django_db
def test_the_page_lists_the_gaps_without_customer_details_with_a_link_to_write_one() -> None:
    ai_answer("ORD-4711のギフト包装はできますか？")
    manager = signed_in(staff_user("kanrisha", Role.MANAGER))

    page = manager.get("/knowledge/gaps/").content.decode()

    assert "［注文番号］のギフト包装はできますか？" in page
    assert "ORD-4711" not in page
    assert "/knowledge/articles/new?language=ja&amp;question=" in page
    assert (
        signed_in(staff_user("tantousha", Role.OPERATOR)).get("/knowledge/gaps/").status_code == 403
    )
