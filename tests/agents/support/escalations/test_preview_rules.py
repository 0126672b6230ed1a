"""The pure rules behind the decision preview: whose words are checked, when they are in
another language than the customer's, and when the previewed reply still stands."""

from __future__ import annotations

from typing import Any

import pytest

from agents.support.escalations.language import LanguageCheck, language_check, operator_words
from agents.team.graph.approval_nodes import (
    DecisionOutcome,
    DecisionRound,
    Outcome,
    decide_outcome,
    outcome_facts,
    previewed_reply,
)


@pytest.mark.parametrize(
    ("text", "customer", "expected"),
    [
        ("Please send us a photo.", "ja", LanguageCheck("ja", "en")),
        ("破損箇所のお写真をお送りください", "ja", LanguageCheck("ja", "ja")),
        ("返品期限切れ", "en", LanguageCheck("en", "ja")),
        ("Out of the return window", "en", LanguageCheck("en", "en")),
        ("ORD-4003", "ja", LanguageCheck("ja", "")),  # numbers say nothing of a language
        ("   ", "ja", LanguageCheck("ja", "")),
        ("ORD-4003は返品期限を過ぎています (return window)", "ja", LanguageCheck("ja", "ja")),
        ("anything", "", LanguageCheck("ja", "en")),  # an unknown customer language: the shop's
    ],
)
def test_language_check(text: str, customer: str, expected: LanguageCheck) -> None:
    assert language_check(text, customer_language=customer) == expected


@pytest.mark.parametrize(
    ("check", "mismatch"),
    [
        (LanguageCheck("ja", "en"), True),
        (LanguageCheck("en", "ja"), True),
        (LanguageCheck("ja", "ja"), False),
        (LanguageCheck("ja", ""), False),
    ],
)
def test_a_mismatch_is_a_text_in_another_language(check: LanguageCheck, mismatch: bool) -> None:
    assert check.mismatch is mismatch


@pytest.mark.parametrize(
    ("decision", "expected"),
    [("reject", "the reason"), ("edit", "the reply"), ("approve", ""), ("take_over", "")],
)
def test_the_words_checked_are_the_ones_the_customer_reads(decision: str, expected: str) -> None:
    assert operator_words(decision=decision, reason="the reason", reply="the reply") == expected


EXECUTED = {"action_id": "a1", "outcome": "executed", "refund_amount": 5000, "params": {}}
DECLINED = {"action_id": "a1", "outcome": "declined", "reason": "no", "params": {}}
REFUSED = {"action_id": "a1", "outcome": "refused", "code": "refund_exceeds_captured"}
FAILED = {"action_id": "a1", "outcome": "failed", "code": "gateway_server_error"}
SHOWN_EXECUTED = {
    "text": "Refunded.",
    "outcomes": {"a1": {"outcome": "executed", "refund_amount": 5000}},
}
SHOWN_DECLINED = {"text": "Declined.", "outcomes": {"a1": {"outcome": "declined"}}}


def approve(preview: dict[str, Any] | None = None, decision: str = "approve") -> dict[str, Any]:
    return {"decision": decision, **({"preview": preview} if preview else {})}


@pytest.mark.parametrize(
    ("decisions", "results", "expected"),
    [
        ({"a1": approve(SHOWN_EXECUTED)}, [EXECUTED], "Refunded."),
        ({"a1": approve(SHOWN_DECLINED, "reject")}, [DECLINED], "Declined."),
        # the gateway refused or failed: the run writes a new reply
        ({"a1": approve(SHOWN_EXECUTED)}, [REFUSED], ""),
        ({"a1": approve(SHOWN_EXECUTED)}, [FAILED], ""),
        # another amount went through than the one shown
        ({"a1": approve(SHOWN_EXECUTED)}, [EXECUTED | {"refund_amount": 4000}], ""),
        ({"a1": approve(SHOWN_DECLINED, "reject")}, [EXECUTED], ""),
        ({"a1": approve()}, [EXECUTED], ""),  # nothing was shown (a decision from before)
        ({"a1": approve(SHOWN_EXECUTED)}, [], ""),
        (
            {"a1": approve(SHOWN_EXECUTED), "a2": approve(SHOWN_DECLINED)},
            [EXECUTED, EXECUTED | {"action_id": "a2"}],
            "",
        ),
    ],
)
def test_previewed_reply(
    decisions: dict[str, Any], results: list[dict[str, Any]], expected: str
) -> None:
    assert previewed_reply(decisions, results) == expected


def test_outcome_facts_are_what_the_reply_tells() -> None:
    result = EXECUTED | {"gateway_refund_id": "re_1", "operator": "op1", "kind": "process_refund"}
    assert outcome_facts(result) == {"outcome": "executed", "refund_amount": 5000}


@pytest.mark.parametrize(
    ("decisions", "results", "retry", "expected"),
    [
        (
            {"a1": approve(SHOWN_EXECUTED)},
            [EXECUTED],
            False,
            DecisionOutcome(Outcome.EXECUTED, "Refunded."),
        ),
        (
            {"a1": approve(SHOWN_EXECUTED)},
            [EXECUTED],
            True,
            DecisionOutcome(Outcome.RETRY_SETTLED, "Refunded."),
        ),
        (
            {"a1": approve(SHOWN_DECLINED, "reject")},
            [DECLINED],
            False,
            DecisionOutcome(Outcome.REFUSED, "Declined."),
        ),
        ({"a1": approve(SHOWN_EXECUTED)}, [REFUSED], False, DecisionOutcome(Outcome.REFUSED)),
        (
            {"a1": approve(SHOWN_EXECUTED)},
            [FAILED],
            False,
            DecisionOutcome(Outcome.FAILED, failed=(FAILED,)),
        ),
    ],
)
def test_the_outcome_carries_the_previewed_reply_only_when_it_holds(
    decisions: dict[str, Any], results: list[dict[str, Any]], retry: bool, expected: DecisionOutcome
) -> None:
    assert decide_outcome(DecisionRound(decisions, results, waits_on_a_retry=retry)) == expected
