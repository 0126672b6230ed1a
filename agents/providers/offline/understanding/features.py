"""What the learned router sees of a message: character n-grams and words, entities masked.

Character n-grams read Japanese without a tokenizer and forgive English typos and inflections
(``refnd``, ``refunded``); words and word pairs add the English phrases n-grams cut apart.
Identifiers are masked before either is taken: an order number in any format the customer
types becomes one token, so the model learns "an order was named", never the digits of the
examples it was trained on. Pure functions; the trainer and the router share them, so the
features a model was trained on are exactly the ones it is asked about.
"""

from __future__ import annotations

import itertools
import re
from typing import Final

from agents.providers.offline.understanding.typos import prepare

# Masks, applied in this order on NFKC, lower-cased text. Tokens are kept letter-free of
# either language's words so they only ever match themselves.
_MASKS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    # Markup pasted into a message carries no request: "<script>…</script>ORD-1003を返金して"
    # asks for a refund, however much code comes before it.
    (re.compile(r"<(script|style)\b.*?</\1\s*>", re.DOTALL), " "),
    (re.compile(r"<[a-z/!][^<>@]{0,300}>"), " "),  # an e-mail address in <> is kept
    (re.compile(r"https?://\S+|\S+@\S+\.\w+"), " ⟨url⟩ "),
    # Placeholders of templated corpora ("{{Order Number}}") read like what they stand for.
    (re.compile(r"\{\{[^{}]*(?:order|注文)[^{}]*\}\}"), " ⟨ord⟩ "),
    (re.compile(r"\{\{[^{}]*(?:track|追跡)[^{}]*\}\}"), " ⟨trk⟩ "),
    (re.compile(r"\{\{[^{}]*\}\}"), " ⟨slot⟩ "),
    (re.compile(r"(?<![a-z0-9])(?:ord|#w)[\s\-_#:.]*\d{3,}|#\d{3,}"), " ⟨ord⟩ "),
    (re.compile(r"(?<!\d)\d{4}[\s\-]?\d{4}[\s\-]?\d{4}(?!\d)"), " ⟨trk⟩ "),
    (re.compile(r"(?<![\d,])\d{7,11}(?![\d,])"), " ⟨num⟩ "),
    (re.compile(r"〒\s*\d{3}-?\d{4}|(?<![\d-])\d{3}-\d{4}(?![\d-])"), " ⟨zip⟩ "),
    (
        re.compile(
            r"(?<!\d)\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?!\d)|(?<![\d/])\d{1,2}/\d{1,2}(?![\d/])"
        ),
        " ⟨date⟩ ",
    ),
    (
        re.compile(r"(?<![\d-])\d{1,2}(?::\d{2})?\s*(?:-|~|〜|–|to)\s*\d{1,2}(?::\d{2})?(?![\d-])"),
        " ⟨time⟩ ",
    ),
    (re.compile(r"[¥\\]\s*\d[\d,]*|\d[\d,]*\s*(?:円|yen\b|jpy\b)"), " ⟨yen⟩ "),
    (re.compile(r"\d+"), "0"),
)
_SPACES: Final = re.compile(r"\s+")
_WORD: Final = re.compile(r"[a-z][a-z']*|⟨\w+⟩")
CHAR_NGRAMS: Final = (1, 2, 3, 4)


def masked(text: str) -> str:
    """The message normalised and lower-cased, with identifiers and amounts as tokens."""
    result = prepare(text).lower()
    for pattern, token in _MASKS:
        result = pattern.sub(token, result)
    return _SPACES.sub(" ", result).strip()


def features(text: str) -> list[str]:
    """The message's features, repeated as often as they occur (the vectorizer counts)."""
    form = masked(text)
    padded = f" {form} "
    grams = [
        "c" + padded[start : start + size]
        for size in CHAR_NGRAMS
        for start in range(len(padded) - size + 1)
        if not padded[start : start + size].isspace()
    ]
    words = _WORD.findall(form)
    grams += ["w" + word for word in words]
    grams += [f"b{first} {second}" for first, second in itertools.pairwise(words)]
    return grams
