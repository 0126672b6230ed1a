"""``run_inquiry`` prints one run as JSON, the way an engineer tries the graph from a shell."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> dict:
    out = io.StringIO()
    call_command("run_inquiry", *args, stdout=out)
    return json.loads(out.getvalue())


def test_a_refund_stops_for_approval_with_the_pending_action(demo_shop: None) -> None:
    result = run("--customer", "C0001", "ORD-1003が壊れていました。返金してください。")

    assert result["status"] == "awaiting_approval"
    assert result["intent"] == "process_refund"
    assert [a["agent"] for a in result["agents"]] == ["order", "payment"]
    [action] = result["pending_actions"]
    assert (action["kind"], action["params"]["amount"]) == ("process_refund", 12800)
    assert action["tool_call_id"].startswith("call_")


def test_an_english_question_is_answered_in_english(demo_shop: None) -> None:
    result = run("--customer", "C0002", "Which payment methods do you accept?")

    assert result["status"] == "resolved"
    assert result["language"] == "en"
    assert result["reply"].startswith("Hello")


def test_an_unknown_customer_is_a_clear_error(demo_shop: None) -> None:
    with pytest.raises(CommandError, match="C9999"):
        run("--customer", "C9999", "hello")


def test_an_empty_inquiry_is_refused(demo_shop: None) -> None:
    with pytest.raises(CommandError, match="shows nothing"):
        run("--customer", "C0001", "   ")
