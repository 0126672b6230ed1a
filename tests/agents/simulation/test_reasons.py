"""The reasons' catalogue: each code words its parameters in English as the CLI prints it, and
in the console's languages with the parameters (data) spelt as they are."""

from __future__ import annotations

import re
from string import Formatter
from typing import Any

import pytest
from django.utils import translation

from agents.simulation.reasons import TERMS, Reason, reason, reason_shown

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def sample(code: str) -> dict[str, Any]:
    """A value per parameter that can be found in the text: an order, an amount, a list."""
    values: dict[str, Any] = {}
    for n, name in enumerate(sorted(fields(TERMS[code].english))):
        values[name] = ["resolved", f"ORD-{n:04d}"] if name == "expected" else f"ORD-{n:04d}"
    return values


@pytest.mark.parametrize("code", sorted(TERMS))
def test_each_code_names_the_same_parameters_in_both_formats(code: str) -> None:
    term = TERMS[code]
    with translation.override("en"):
        assert fields(str(term.shown)) == fields(term.english)


@pytest.mark.parametrize("code", sorted(TERMS))
@pytest.mark.parametrize("language", ["en", "ja"])
def test_each_code_renders_in_each_language_with_its_parameters(code: str, language: str) -> None:
    params = sample(code)
    with translation.override(language):
        shown = reason_shown(reason(code, **params).as_dict())
    assert shown is not None
    for value in params.values():
        assert str(value) in shown or repr(value) in shown
    assert bool(JAPANESE.search(shown)) is (language == "ja")


def test_the_english_text_is_the_scorers_wording() -> None:
    status = reason("status", status="escalated", expected=["resolved"])
    quoted = reason("forbidden_mention", said="送料無料")
    assert status.text == "status escalated not in ['resolved']"
    assert quoted.text == "reply mentions '送料無料'"
    assert reason("reply_empty").text == "empty reply"


def test_a_stored_reason_in_japanese_keeps_its_data_as_it_is() -> None:
    stored = reason("refund_over", amount=12000, limit=5000).as_dict()
    assert stored == {"code": "refund_over", "params": {"amount": 12000, "limit": 5000}}
    with translation.override("ja"):
        assert reason_shown(stored) == "返金額 12000 が上限 5000 を超えています"


def test_an_unknown_code_is_refused_when_made_and_not_worded_when_stored() -> None:
    with pytest.raises(KeyError):
        reason("no_such_reason")
    assert reason_shown({"code": "no_such_reason", "params": {}}) is None
    assert reason_shown({"code": "refund_over", "params": {"amount": 1}}) is None
    assert Reason("reply_empty", {}).as_dict() == {"code": "reply_empty", "params": {}}
