"""The end-to-end understanding check (``bench.understanding``): its case file and its rules
on observations made by hand (three of its cases run through the real graph in
``test_understanding_on_the_demo.py``).

Given observations of a run, when a case is judged, then the rules (relative dates,
alternatives, an action nobody asked for) hold on their own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bench import understanding
from bench.understanding_checks import Action, Observation, failures, resolve_date


def test_the_case_file_has_fifty_two_japanese_and_forty_two_english_cases() -> None:
    cases = understanding.load_cases()

    languages = [understanding.case_language(case) for case in cases]
    assert (languages.count("ja"), languages.count("en")) == (52, 42)
    assert len({case["id"] for case in cases}) == 94


def observation(**overrides: Any) -> Observation:
    values: dict[str, Any] = {
        "status": "resolved",
        "language": "ja",
        "reply": "ご注文 ORD-4002のお届け予定日は12月4日(金)です。",
        "agents": ["order", "shipping"],
        "intent": "track_shipment",
        "actions": [],
        "today": dt.date(2026, 12, 1),  # a Tuesday
        "due_dates": {"ORD-4002": dt.date(2026, 12, 4)},
    }
    return Observation(**(values | overrides))


def test_relative_dates_resolve_from_the_run_day() -> None:
    seen = observation()

    assert resolve_date("+3", seen) == dt.date(2026, 12, 4)
    assert resolve_date("due+3:ORD-4002", seen) == dt.date(2026, 12, 7)
    assert resolve_date("next:sat", seen) == dt.date(2026, 12, 5)
    assert resolve_date("nextweek:sat", seen) == dt.date(2026, 12, 12)


def test_an_action_nobody_asked_for_fails_the_case() -> None:
    case = {"text": "ORD-4002はいつ届きますか？", "expect": {"reply_has": ["{due:ORD-4002}"]}}
    refund = Action("process_refund", "proposed", {"order_number": "ORD-4002", "amount": 10960})

    assert failures(case, observation(), customer_language="ja") == []
    assert failures(case, observation(actions=[refund]), customer_language="ja") == [
        "unexpected action process_refund(proposed {'order_number': 'ORD-4002', 'amount': 10960})"
    ]


def test_one_alternative_is_enough_and_the_closest_one_explains_a_miss() -> None:
    case = {
        "text": "急須の配達日を1日遅らせたいです。",
        "expect": {
            "or": [
                {"action": {"kind": "change_delivery_date", "order": "ORD-4002",
                            "date": "due+1:ORD-4002"}},
                {"asks": True, "ask_offers": ["ORD-4002"]},
            ]
        },
    }  # fmt: skip
    moved = Action("change_delivery_date", "done", {"order_number": "ORD-4002",
                                                    "new_date": "2026-12-05"})  # fmt: skip
    asked = observation(status="awaiting_customer", reply="どちらのご注文でしょうか。ORD-4002")

    assert failures(case, observation(actions=[moved]), customer_language="ja") == []
    assert failures(case, asked, customer_language="ja") == []
    assert failures(case, observation(), customer_language="ja") == [
        "action (kind=change_delivery_date, order=ORD-4002, date=due+1:ORD-4002) missing: "
        "none proposed or done"
    ]
