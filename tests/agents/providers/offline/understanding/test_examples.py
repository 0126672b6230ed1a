"""The router's labelled examples: well formed, labelled with the cards' skills, varied."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from agents.providers.offline.understanding.examples import (
    INTENTS,
    LANGUAGES,
    load_examples,
    parse_line,
    read_file,
)

DEV_SET = Path(__file__).parents[3] / "fixtures" / "inquiries_dev.jsonl"


def test_every_intent_has_many_examples_in_each_language() -> None:
    counts = Counter(
        (example.language, intent) for example in load_examples() for intent in example.intents
    )

    thin = {
        (lang, i): counts[lang, i] for lang in LANGUAGES for i in INTENTS if counts[lang, i] < 60
    }
    assert thin == {}


def test_thousands_of_examples_with_messages_that_ask_several_things() -> None:
    examples = load_examples()

    assert len(examples) >= 6000
    assert sum(len(e.intents) > 1 for e in examples) >= 400
    assert sum(e.agents == ("payment",) for e in examples) >= 40  # no order behind them


def test_the_dev_set_is_held_out_of_the_examples() -> None:
    dev = {line.split('"text": "')[1].split('"')[0] for line in DEV_SET.read_text().splitlines()}

    assert dev & {example.text for example in load_examples()} == set()


def test_agents_default_to_what_the_intents_need_through_the_cards() -> None:
    example = parse_line('{"text": "x", "intents": ["track_shipment"]}', language="en", source="t")

    assert example.agents == ("order", "shipping")


def test_explicit_agents_override_the_cards_and_keep_the_canonical_order() -> None:
    example = parse_line(
        '{"text": "card declined at checkout", "intents": ["check_payment_status"],'
        ' "agents": ["payment"]}',
        language="en",
        source="t",
    )

    assert example.agents == ("payment",)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "f.jsonl:1: invalid JSON"),
        ('{"text": "", "intents": ["search_faq"]}', "'text' must be a non-empty string"),
        ('{"text": "hi", "intents": []}', "a message asking for nothing names its 'agents'"),
        ('{"text": "hi", "intents": "none"}', "'intents' must be a list"),
        ('{"text": "hi", "intents": ["refund_twice"]}', "unknown intents"),
        ('{"text": "hi", "intents": ["search_faq"], "agents": ["billing"]}', "unknown agents"),
    ],
)
def test_a_malformed_line_is_refused_with_where_and_why(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_line(line, language="en", source="f.jsonl:1")


def test_a_file_is_read_line_by_line_skipping_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"text": "a", "intents": ["search_faq"]}\n\n', encoding="utf-8")

    assert [e.source for e in read_file(path, language="en")] == ["x.jsonl:1"]
