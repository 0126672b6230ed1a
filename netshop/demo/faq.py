"""The demo FAQ: the same policies in Japanese and English, one pair per topic.

The entries live in ``faq.json`` beside this module (data, not code: edit them there). The
numbers in them (14 days, ¥5,000, 08-12 ...) are the demo shop's policy and match the rules
the services enforce, so an answer taken from the FAQ never contradicts what support can do.
The coupon rules (a cause on record, one per inquiry, one per customer in 30 days, ¥1,000,
90 days, no reissue) are the defaults of ``netshop.services.coupons``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

FAQ_PATH = Path(__file__).with_name("faq.json")
LANGUAGES = ("ja", "en")  # each topic's entries, in this order


class FaqSpec(NamedTuple):
    category: str
    language: str
    question: str
    answer: str
    keywords: str


def _topic_entries(topic: dict[str, Any]) -> list[FaqSpec]:
    """A topic's entries, one per language; a topic missing a language is an error, not a gap."""
    return [
        FaqSpec(
            category=topic["category"],
            language=language,
            question=topic[language]["question"],
            answer=topic[language]["answer"],
            keywords=topic[language]["keywords"],
        )
        for language in LANGUAGES
    ]


def load_faq(path: Path = FAQ_PATH) -> tuple[FaqSpec, ...]:
    """Every entry of the FAQ file, in the file's order (Japanese, then English, per topic)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return tuple(entry for topic in document["topics"] for entry in _topic_entries(topic))


FAQ: tuple[FaqSpec, ...] = load_faq()
