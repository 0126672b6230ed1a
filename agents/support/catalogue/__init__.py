"""What customers read, one catalogue per language: ``ja.py`` and ``en.py``, keyed by stable ids.

Every sentence or word a customer reads from the support team (the offline model's replies
and questions, the support domain's own messages) is a template here; code assembles messages
from them and never spells one inline (``tests/test_customer_wording.py`` fails on a sentence
outside). Staff-facing text (console, staff mail, admin) is gettext: it speaks the operator's
language. ``say`` fails loudly: a key or a placeholder missing is a bug, not a blank.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from functools import cache
from typing import Final, Literal

from agents.support.catalogue import en, ja

Language = Literal["ja", "en"]
LANGUAGES: Final[tuple[Language, ...]] = ("ja", "en")
CATALOGUES: Final[dict[Language, dict[str, str]]] = {"ja": ja.MESSAGES, "en": en.MESSAGES}


class CatalogueError(LookupError):
    """A key the catalogue lacks, or a template's placeholders and the fields given differ."""


def say(language: Language, key: str, /, **fields: object) -> str:
    """The message ``key`` in ``language``, its placeholders filled with ``fields`` (exactly:
    a field missing or one the template does not use raises ``CatalogueError``)."""
    template = _template(language, key)
    wanted = placeholders(language, key)
    if wanted != fields.keys():
        missing, extra = sorted(wanted - fields.keys()), sorted(fields.keys() - wanted)
        raise CatalogueError(f"{language}:{key}: missing {missing}, unexpected {extra}")
    return template.format(**fields)


def say_from(language: Language, key: str, fields: Mapping[str, object]) -> str:
    """``say`` with the fields ``key`` takes picked from ``fields``, which may hold more: for
    callers that fill a family of templates alike (a refusal's, whichever rule refused)."""
    wanted = placeholders(language, key)
    return say(language, key, **{name: value for name, value in fields.items() if name in wanted})


def has(language: Language, key: str) -> bool:
    """Whether the catalogue holds ``key`` (for lookups that refine a key, e.g. a refusal
    by the order's status, and fall back to the plain one)."""
    return key in CATALOGUES[language]


@cache
def placeholders(language: Language, key: str) -> frozenset[str]:
    """The fields ``key``'s template in ``language`` takes."""
    fields = string.Formatter().parse(_template(language, key))
    return frozenset(name for _, name, _, _ in fields if name)


def spoken(language: object, *, default: Language) -> Language:
    """``language`` as a catalogue language ("ja-JP" is "ja"); ``default`` for any other."""
    prefix = str(language or "").split("-")[0].lower()
    return next((known for known in LANGUAGES if known == prefix), default)


def _template(language: Language, key: str) -> str:
    try:
        return CATALOGUES[language][key]
    except KeyError:
        raise CatalogueError(f"{language}:{key} is not in the catalogue") from None


# The paragraphs that frame every reply the team writes: a list's one-line preview skips them.
FRAME_KEYS: Final = ("reply.greeting", "reply.closing")


def without_frame(text: str) -> str:
    """``text`` without the catalogue's greeting and closing paragraphs, in either language:
    a reply's gist (the whole text when it is nothing but its frame)."""
    frame = {_template(language, key).strip() for language in LANGUAGES for key in FRAME_KEYS}
    kept = [part for part in re.split(r"\n\s*\n", text) if part.strip() not in frame]
    return "\n\n".join(kept) or text
