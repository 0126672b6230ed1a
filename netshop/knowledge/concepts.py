"""What a customer's words are about, as topic names shared by every article and question.

A general lexicon, written for how customers speak in Japanese and English, not for any
article's wording: the concepts are the topic tags of ``netshop.knowledge.tags``, so a
question and an article meet on a concept even when they share no word (a parcel "handed to
a neighbour" is ``not_received``; 「プレゼント用に包んで」 is ``gift_wrapping``). Pure.
"""

from __future__ import annotations

import re
from typing import Final

from netshop.knowledge.tokens import normalized

# concept -> the words that name it, Japanese and English (regular expressions, lowercase).
LEXICON: Final[dict[str, tuple[str, ...]]] = {}

_COMPILED: Final = {
    concept: re.compile("|".join(f"(?:{cue})" for cue in cues)) for concept, cues in LEXICON.items()
}


def concepts_in(text: str) -> frozenset[str]:
    """The concepts ``text`` names."""
    folded = normalized(text)
    return frozenset(concept for concept, cue in _COMPILED.items() if cue.search(folded))
