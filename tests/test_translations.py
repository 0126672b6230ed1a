"""The Japanese catalogue: every string the code marks is extracted and translated, and the
compiled catalogue the app loads says what the source catalogue says.

The extraction runs ``makemessages -l ja`` into a temporary copy of the locale directory, so a
string marked in code (or a template) but never added to ``django.po`` fails here, not in front
of a Japanese operator; the committed catalogue is never touched.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
CATALOGUE = LOCALE / "ja" / "LC_MESSAGES" / "django.po"
ENTRY = re.compile(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', re.MULTILINE)
CONTEXT = re.compile(r'^msgctxt ((?:".*"\n)+)', re.MULTILINE)
SEPARATOR = "\x04"  # gettext's: "context\x04msgid" names an entry with a context
# Where the marked strings are: the catalogue's header leaves out var, bench, tests and docs.
SOURCES = ["agents", "netshop", "operators", "templates"]


def entries(catalogue: Path = CATALOGUE) -> dict[str, str]:
    """msgid -> msgstr for every entry but the header; fuzzy entries count as untranslated.
    An entry with a context is keyed "context\x04msgid", as gettext keys it."""
    text = catalogue.read_text(encoding="utf-8")
    found = {}
    for block in text.split("\n\n"):
        match = ENTRY.search(block + "\n")
        if match is None:
            continue
        msgid, msgstr = (_joined(part) for part in match.groups())
        context = CONTEXT.search(block + "\n")
        if context is not None and msgid:
            msgid = _joined(context.group(1)) + SEPARATOR + msgid
        if msgid:
            found[msgid] = "" if "#, fuzzy" in block else msgstr
    return found


def _joined(lines: str) -> str:
    return "".join(ast.literal_eval(line) for line in lines.splitlines())


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The catalogue as ``makemessages -l ja`` leaves it, run on a copy of ``locale/``.

    makemessages writes into the ``locale`` directory beside the files it reads, so it runs
    in a scratch directory holding links to the sources and a copy of the catalogue.
    """
    if shutil.which("msguniq") is None:
        pytest.fail("makemessages needs GNU gettext: apt-get install -y gettext")
    scratch = tmp_path_factory.mktemp("extract")
    shutil.copytree(LOCALE, scratch / "locale")
    for source in SOURCES:
        (scratch / source).symlink_to(ROOT / source)
    committed = CATALOGUE.read_bytes()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(scratch)
        patch.setattr(settings, "LOCALE_PATHS", [scratch / "locale"])
        call_command("makemessages", locale=["ja"], symlinks=True, verbosity=0)
    assert CATALOGUE.read_bytes() == committed, "the extraction must write to the copy only"
    return entries(scratch / "locale" / "ja" / "LC_MESSAGES" / "django.po")


def test_every_string_the_code_marks_is_in_the_catalogue_and_translated(
    extracted: dict[str, str],
) -> None:
    missing = sorted(msgid for msgid in extracted if msgid not in entries())
    untranslated = sorted(msgid for msgid, msgstr in extracted.items() if not msgstr)

    assert len(extracted) > 100
    assert (missing, untranslated) == ([], [])


def test_every_entry_of_the_catalogue_is_translated() -> None:
    untranslated = [msgid for msgid, msgstr in entries().items() if not msgstr]

    assert len(entries()) > 100
    assert untranslated == []


def test_the_compiled_catalogue_is_up_to_date() -> None:
    with translation.override("ja"):
        stale = {m: _translated(m) for m, s in entries().items() if _translated(m) != s}

    assert stale == {}, "run manage.py compilemessages -l ja"


def _translated(key: str) -> str:
    if SEPARATOR in key:
        context, msgid = key.split(SEPARATOR, 1)
        return translation.pgettext(context, msgid)
    return translation.gettext(key)
