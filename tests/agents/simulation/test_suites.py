"""A suite file is read into cases, or refused with the line, the case and what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.simulation.suites import SuiteError, suite_load, suite_parse

TURN = {"text": "Where is my parcel?", "expected_status": ["resolved"]}


def line(**case: object) -> str:
    return json.dumps(case, ensure_ascii=False)


def test_a_multi_turn_case_keeps_its_turns_in_order_with_the_case_language_as_default() -> None:
    text = line(
        id="two-turns",
        category="multi",
        customer="C9001",
        lang="en",
        turns=[TURN, {"text": "ORD-9001", "expected_status": ["awaiting_approval"]}],
    )

    (case,) = suite_parse(text)

    assert (case.id, case.category, case.customer, case.lang) == (
        "two-turns",
        "multi",
        "C9001",
        "en",
    )
    assert [t.text for t in case.turns] == ["Where is my parcel?", "ORD-9001"]
    assert [t.reply_lang for t in case.turns] == ["en", "en"]


def test_the_scorers_one_turn_form_is_a_case_as_it_stands() -> None:
    text = line(
        id="cj9",
        category="refund",
        customer="C9001",
        lang="ja",
        reply_lang="ja",
        text="返金してください",
        expected_status=["awaiting_approval"],
        expected_action={"kind": "process_refund", "order": "ORD-9001", "amount": 1200},
    )

    (case,) = suite_parse(text)

    assert case.turns[0].text == "返金してください"
    assert case.turns[0].expect == {
        "expected_status": ["awaiting_approval"],
        "expected_action": {"kind": "process_refund", "order": "ORD-9001", "amount": 1200},
        "reply_lang": "ja",
    }
    assert case.as_json()["turns"] == [{"text": "返金してください", **case.turns[0].expect}]


def test_comments_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "suite.jsonl"
    path.write_text(
        "// a shop's suite\n\n# another comment\n"
        + line(id="a", customer="C9001", lang="en", turns=[TURN])
        + "\n",
        encoding="utf-8",
    )

    assert [c.id for c in suite_load(path)] == ["a"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "suite:1: not JSON"),
        (line(customer="C9001", lang="en", turns=[TURN]), "suite:1: the case has no id"),
        (
            line(id="a", customer="C9001", lang="fr", turns=[TURN]),
            "case a: lang must be one of ja, en",
        ),
        (line(id="a", lang="en", turns=[TURN]), "case a: customer (a customer code"),
        (
            line(id="a", customer="C9001", lang="en", turns=[]),
            "case a: turns must be a non-empty list",
        ),
        (line(id="a", customer="C9001", lang="en"), "case a: a case needs turns"),
        (
            line(id="a", customer="C9001", lang="en", turns=[{"text": "hi"}]),
            "case a, turn 1: expected_status must be a list",
        ),
        (
            line(id="a", customer="C9001", lang="en", turns=[{**TURN, "expected_stats": []}]),
            "case a, turn 1: unknown keys ['expected_stats']",
        ),
        (
            line(id="a", customer="C9001", lang="en", turns=[{**TURN, "forbidden": ["refund"]}]),
            "case a, turn 1: forbidden rules start with",
        ),
        (
            line(
                id="a",
                customer="C9001",
                lang="en",
                turns=[
                    {
                        **TURN,
                        "expected_effects": [
                            {"kind": "redelivery", "order": "ORD-9001", "date": "tomorrow"}
                        ],
                    }
                ],
            ),
            "date 'tomorrow' is not +N",
        ),
        (
            line(
                id="a",
                customer="C9001",
                lang="en",
                turns=[{**TURN, "expected_action": {"kind": "x"}}],
            ),
            "an action needs kind and order",
        ),
        ("// only a comment\n", "suite: no cases"),
    ],
)
def test_a_bad_suite_is_refused_with_where_and_why(text: str, message: str) -> None:
    with pytest.raises(
        SuiteError, match=message.replace("(", r"\(").replace("[", r"\[").replace("+", r"\+")
    ):
        suite_parse(text)


def test_an_id_used_twice_is_refused_on_its_second_line() -> None:
    case = line(id="same", customer="C9001", lang="en", turns=[TURN])

    with pytest.raises(SuiteError, match="suite:2: case same: the id is used twice"):
        suite_parse(f"{case}\n{case}")


def test_a_missing_file_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="cannot read the suite"):
        suite_load(tmp_path / "missing.jsonl")


def test_the_sample_suite_parses_in_both_languages() -> None:
    cases = suite_load(Path(__file__).resolve().parents[3] / "simulations" / "sample.jsonl")

    assert len(cases) >= 20
    assert {c.lang for c in cases} == {"ja", "en"}
    assert any(len(c.turns) > 1 for c in cases)
