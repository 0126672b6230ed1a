"""``run_inquiry`` prints one run as JSON, the way an engineer tries the graph from a shell."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.support.scenarios import SupportShop


def run(*args: str) -> dict:
    out = io.StringIO()
    call_command("run_inquiry", *args, stdout=out)
    return json.loads(out.getvalue())


def test_a_refund_stops_for_approval_with_the_pending_action(shop: SupportShop) -> None:
    result = run(
        "--customer",
        shop.hanako.customer.code,
        f"{shop.hanako.delivered.number}が壊れていました。返金してください。",
    )

    assert result["status"] == "awaiting_approval"
    assert result["intent"] == "process_refund"
    assert [a["agent"] for a in result["agents"]] == ["order", "payment"]
    [action] = result["pending_actions"]
    assert (action["kind"], action["params"]["amount"]) == ("process_refund", 12800)
    assert action["tool_call_id"].startswith("call_")


def test_an_english_question_is_answered_in_english(shop: SupportShop) -> None:
    result = run("--customer", shop.emily.customer.code, "Which payment methods do you accept?")

    assert result["status"] == "resolved"
    assert result["language"] == "en"
    assert result["reply"].startswith("Hello")


def test_an_unknown_customer_is_a_clear_error(shop: SupportShop) -> None:
    with pytest.raises(CommandError, match="C9999"):
        run("--customer", "C9999", "hello")


def test_an_empty_inquiry_is_refused(shop: SupportShop) -> None:
    with pytest.raises(CommandError, match="shows nothing"):
        run("--customer", shop.hanako.customer.code, "   ")
