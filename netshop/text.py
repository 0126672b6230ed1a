"""What a person sees of a text: the test behind "blank" for anything a customer writes; and
what PostgreSQL cannot store of one.

``str.strip()`` keeps the zero-width space, joiners, the BOM, controls, combining marks and
the fillers that render as blank (Hangul, Braille), so a text of those alone passes it and
still shows nothing.
"""

from __future__ import annotations

import re
import unicodedata

# Format and control characters, separators, and combining marks with nothing to sit on.
_BLANK_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me"})
_BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# PostgreSQL text and jsonb refuse NUL, and a lone surrogate has no UTF-8 form to send.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def shows_nothing(text: str) -> bool:
    """True when no character of ``text`` shows anything to a reader."""
    return not any(_shows_something(char) for char in text)


def _shows_something(char: str) -> bool:
    return not (
        char.isspace() or char in _BLANK_FILLERS or unicodedata.category(char) in _BLANK_CATEGORIES
    )


def unstorable(text: str) -> bool:
    """True when PostgreSQL would refuse ``text`` (psycopg raises rather than store it)."""
    return _UNSTORABLE.search(text) is not None
