"""The Japanese catalogue: every string the code marks is translated, and the compiled
catalogue the app loads says what the source catalogue says."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.utils import translation

CATALOGUE = Path(__file__).resolve().parents[1] / "locale" / "ja" / "LC_MESSAGES" / "django.po"
ENTRY = re.compile(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', re.MULTILINE)


def entries() -> dict[str, str]:
    """msgid -> msgstr for every entry but the header; fuzzy entries count as untranslated."""
    text = CATALOGUE.read_text(encoding="utf-8")
    found = {}
    for block in text.split("\n\n"):
        match = ENTRY.search(block + "\n")
        if match is None:
            continue
        msgid, msgstr = (_joined(part) for part in match.groups())
        if msgid:
            found[msgid] = "" if "#, fuzzy" in block else msgstr
    return found


def _joined(lines: str) -> str:
    return "".join(ast.literal_eval(line) for line in lines.splitlines())


def test_every_entry_of_the_catalogue_is_translated() -> None:
    untranslated = [msgid for msgid, msgstr in entries().items() if not msgstr]

    assert len(entries()) > 100
    assert untranslated == []


def test_the_compiled_catalogue_is_up_to_date() -> None:
    with translation.override("ja"):
        stale = {
            m: translation.gettext(m) for m, s in entries().items() if translation.gettext(m) != s
        }

    assert stale == {}, "run manage.py compilemessages -l ja"
