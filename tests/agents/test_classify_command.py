"""``manage.py classify``: JSON lines in, one JSON line out per input, bad lines answered with
an error and skipped over. Pure: no database access (no django_db mark, so any query fails)."""

from __future__ import annotations

import io
import json

from django.core.management import call_command


def run_classify(*lines: str, today: str = "2026-05-13") -> list[dict[str, object]]:
    """The command's answers, each confidence checked to be a probability and set aside
    (it is the learned model's, which retraining moves)."""
    stdout = io.StringIO()
    call_command("classify", "--today", today, stdin=io.StringIO("\n".join(lines)), stdout=stdout)
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    for answer in answers:
        confidence = answer.pop("confidence", 0.5)
        assert isinstance(confidence, float)
        assert 0.0 <= confidence <= 1.0
    return answers


def test_each_line_gets_its_classification_in_order() -> None:
    results = run_classify(
        json.dumps({"text": "ORD-4004を明日の午前に再配達してください", "customer_id": "C4001"}),
        json.dumps({"text": "Please cancel ORD-8002"}),
    )

    assert results == [
        {
            "agents": ["order", "shipping"],
            "intent": "arrange_redelivery",
            "secondary_intents": [],
            "entities": {
                "order_numbers": ["ORD-4004"],
                "tracking_numbers": [],
                "dates": ["2026-05-14"],
                "time_window": "08-12",
                "amounts": [],
                "date_range": None,
                "order_status": None,
                "date_shift_days": None,
            },
            "requests": [{"intent": "arrange_redelivery", "order_numbers": ["ORD-4004"]}],
            "language": "ja",
            "injection_suspected": False,
            "complaint": False,
        },
        {
            "agents": ["order"],
            "intent": "cancel_order",
            "secondary_intents": [],
            "entities": {
                "order_numbers": ["ORD-8002"],
                "tracking_numbers": [],
                "dates": [],
                "time_window": None,
                "amounts": [],
                "date_range": None,
                "order_status": None,
                "date_shift_days": None,
            },
            "requests": [{"intent": "cancel_order", "order_numbers": ["ORD-8002"]}],
            "language": "en",
            "injection_suspected": False,
            "complaint": False,
        },
    ]


def test_bad_lines_get_an_error_and_the_command_goes_on() -> None:
    results = run_classify(
        "{not json",
        json.dumps({"customer_id": "C4001"}),
        json.dumps({"text": "   "}),
        json.dumps(["a list, not an object"]),
        "",
        json.dumps({"text": "返金して"}),
    )

    assert [set(result) for result in results[:4]] == [{"error"}] * 4
    assert str(results[0]["error"]).startswith("invalid JSON")
    assert len(results) == 5  # the blank line is not an input
    assert (results[4]["agents"], results[4]["intent"]) == (["order", "payment"], "process_refund")


def test_agents_come_in_the_canonical_order() -> None:
    stdout = io.StringIO()
    text = "クーポンの使い方がわかりません。あと、注文ORD-4002はいつ届きますか？"

    call_command("classify", stdin=io.StringIO(json.dumps({"text": text})), stdout=stdout)

    result = json.loads(stdout.getvalue())
    assert result["agents"] == ["order", "shipping", "faq"]
    assert result["secondary_intents"] == ["search_faq"]


def test_periods_are_written_as_a_two_item_list() -> None:
    results = run_classify(json.dumps({"text": "Show me the orders I placed in October"}))

    assert results[0]["entities"]["date_range"] == ["2025-10-01", "2025-10-31"]  # type: ignore[index]
