"""What the AI proposes now against what the operators decided then."""

from __future__ import annotations

from typing import Any

from agents.simulation.replay import proposals, replay_verdict, reply_diff


def replay_judge(
    decisions: list[dict[str, Any]], proposed: list[dict[str, Any]]
) -> tuple[bool | None, list[str]]:
    """The verdict with its reasons as the command prints them."""
    agrees, reasons = replay_verdict(decisions, proposed)
    return agrees, [reason.text for reason in reasons]


def decided(decision: str, amount: int | None = 1200) -> dict[str, Any]:
    return {"kind": "process_refund", "order": "ORD-9001", "decision": decision, "amount": amount}


def proposed(amount: int | None = 1200, kind: str = "process_refund") -> dict[str, Any]:
    return {"kind": kind, "order": "ORD-9001", "amount": amount}


def test_an_approval_wants_the_same_action_at_the_approved_amount() -> None:
    assert replay_judge([decided("approve")], [proposed()]) == (True, [])
    assert replay_judge([decided("approve")], []) == (
        False,
        ["does not propose process_refund ORD-9001, which the operators approved"],
    )


def test_an_edit_wants_the_edited_amount() -> None:
    assert replay_judge([decided("edit", 600)], [proposed(600)]) == (True, [])
    assert replay_judge([decided("edit", 600)], [proposed(1200)]) == (
        False,
        ["proposes process_refund ORD-9001 for 1200, operators decided 600"],
    )


def test_a_rejection_wants_no_such_action() -> None:
    assert replay_judge([decided("reject")], [proposed(kind="cancel_order")]) == (True, [])
    assert replay_judge([decided("reject")], [proposed()]) == (
        False,
        ["proposes process_refund ORD-9001, which the operators rejected"],
    )


def test_nothing_decided_is_not_counted() -> None:
    assert replay_judge([], [proposed()]) == (None, [])


def test_proposals_are_read_from_every_turn() -> None:
    turns: list[dict[str, Any]] = [
        {"pending_actions": []},
        {"pending_actions": [{"kind": "cancel_order", "params": {"order_number": "ORD-9001"}}]},
    ]

    assert proposals(turns) == [{"kind": "cancel_order", "order": "ORD-9001", "amount": None}]


def test_the_reply_diff_shows_lines_then_and_now() -> None:
    assert reply_diff("Hello\nWe refunded", "Hello\nA person will review") == (
        "--- then\n+++ now\n@@ -1,2 +1,2 @@\n Hello\n-We refunded\n+A person will review"
    )
    assert reply_diff("same", "same") == ""
