"""A Japanese delivery address read out of a customer's message, for the address change.

Two shapes customers write: Japanese order, postal code first ("〒104-0061 東京都中央区銀座1-2-3
サンプルビル5F"), and the Western order of English ("1-2-3 Ginza, Chuo-ku, Tokyo 104-0061").
Full-width digits and hyphens are read as ASCII. Pure: text in, the parts found out; the
shop validates the address before it is used (``netshop.addresses.address_validate``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from agents.support.text import normalize
from netshop.addresses import PREFECTURES, city_prefecture, prefecture_canonical

_POSTAL: Final = r"(?<![\d-])(\d{3})[-\u2010-\u2015\u2212\u30fc]?(\d{4})(?![\d-])"
_JA_PREFECTURES: Final = "|".join(sorted((name for name, _ in PREFECTURES), key=len, reverse=True))
# 〒 is optional only where a postal code is followed by a prefecture: "104-0061 東京都...".
_JA_ADDRESS: Final = re.compile(
    rf"(?:〒\s*{_POSTAL}|{_POSTAL}(?=\s*(?:{_JA_PREFECTURES})))\s*"
    rf"(?P<prefecture>{_JA_PREFECTURES})?\s*(?P<rest>[^\n。]*)"
)
# The Japanese address ends where the request resumes: 「…に変更してください」「…へお願いします」.
_JA_TAIL: Final = re.compile(
    r"\s*(?:(?:に|へ|まで)(?:変更|変え|修正|送|届け|配達|発送|お願い|転送|して)"
    r"|でお願い|でお届け|で(?:す|した|ございます)|になります|となります|、?(?:お願い|よろしく)).*$"
)
# An English address is read around its postal code, in whichever order the parts come
# ("1-2-3 Ginza, Chuo-ku, Tokyo 104-0061", "〒231-0861, 3-7-1 Motomachi, Naka-ku,
# Yokohama, Kanagawa"), up to the end of the sentence it is in.
_EN_POSTAL: Final = re.compile(rf"〒?\s*{_POSTAL}")
_CLAUSE_END: Final = re.compile(r"[\n;:!?。]|\.(?=\s|$)")
# A word of an address: a number ("2-2-1", "301", "5F"), a name ("Minatomirai", "Nishi-ku"),
# or a word for a building's part ("apt", "room").
_EN_WORD: Final = re.compile(
    r"[#\w'.&/-]*\d[\w'.&/-]*|[A-Z][\w'.&-]*|[a-z][\w'-]*-(?:ku|shi|cho|machi|gun|mura)"
    r"|(?i:apt|apartment|room|rm|bldg|building|floor|fl|unit|no|suite)\.?",
    re.ASCII,
)
# Capitalised words that start a request rather than an address, and identifiers (ORD-1234).
_NOT_ADDRESS: Final = re.compile(
    r"(?i:please|pls|new|address|my|the|to|is|at|it|this|here|our|i|hi|hello|dear|thanks|"
    r"ship|send|deliver|change|update|instead|now|and|or|for|order)|[A-Z]{2,}-\d+",
)
_WARD: Final = re.compile(r"(?i)[-\s]ku$|\s+ward$")
_CITY: Final = re.compile(r"(?i)[-\s]shi$|\s+city$")
_PREFECTURE_SUFFIX: Final = re.compile(r"(?i)[-\s](?:to|fu|ken)$|\s+prefecture$")
_COUNTRY: Final = re.compile(r"(?i)^japan$")


@dataclass(frozen=True)
class FoundAddress:
    """The parts of an address a message gives; any may be missing."""

    postal_code: str = ""
    prefecture: str = ""
    address_line: str = ""

    @property
    def complete(self) -> bool:
        return bool(self.postal_code and self.prefecture and self.address_line)

    def as_args(self) -> dict[str, str]:
        return {
            "postal_code": self.postal_code,
            "prefecture": self.prefecture,
            "address_line": self.address_line,
        }


def find_address(text: str) -> FoundAddress | None:
    """The last address ``text`` gives (a reply's correction wins over the first try), or None.

    Found when a postal code comes with a prefecture or with 〒; the parts missing from it are
    left empty, so the caller can ask for them.
    """
    plain = normalize(text)
    candidates: list[tuple[int, FoundAddress | None]] = [
        (m.start(), _japanese(m)) for m in _JA_ADDRESS.finditer(plain)
    ]
    candidates += [(m.start(), _english(plain, m)) for m in _EN_POSTAL.finditer(plain)]
    found = [address for _, address in sorted(candidates, key=lambda c: c[0]) if address]
    if not found:
        return None
    complete = [address for address in found if address.complete]
    return (complete or found)[-1]


def _postal(match: re.Match[str]) -> str:
    digits = [group for group in match.groups()[:4] if group and group.isdigit()]
    return f"{digits[0]}-{digits[1]}" if len(digits) >= 2 else ""


def _japanese(match: re.Match[str]) -> FoundAddress:
    prefecture = match.group("prefecture") or ""
    rest = _JA_TAIL.sub("", match.group("rest") or "").strip(" 、,　")
    if not prefecture:  # "〒220-0012 横浜市西区…": a designated city names its prefecture
        city = re.match(r"[^\s\d]{1,4}?市", rest)
        prefecture = (city_prefecture(city.group(0)) if city else None) or ""
    return FoundAddress(_postal(match), prefecture, rest if prefecture else "")


def _english(text: str, postal: re.Match[str]) -> FoundAddress | None:
    """The address written around ``postal`` in English words, in any order of its parts."""
    parts = _english_parts(text, postal)
    prefecture, parts = _take_prefecture(parts)
    if not prefecture:
        prefecture = next(filter(None, (city_prefecture(part) for part in parts)), "")
    line = ", ".join(parts)
    if not prefecture or not re.search(r"\d", line):
        return None
    return FoundAddress(_postal(postal), prefecture, line)


def _english_parts(text: str, postal: re.Match[str]) -> list[str]:
    """The comma-separated parts of the address next to ``postal``, in the written order:
    those before it back to the first word of the request, those after it up to the first."""
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, postal.start())), default=0)
    after = _CLAUSE_END.search(text, postal.end())
    before = text[start : postal.start()].split(",")
    behind = text[postal.end() : after.start() if after else len(text)].split(",")
    earlier: list[str] = []
    for part in reversed(before):
        words = _address_words(part.split(), from_end=True)
        if words:
            earlier.insert(0, " ".join(words))
        if part.strip() and len(words) < len(part.split()):
            break
    later: list[str] = []
    for part in behind:
        words = _address_words(part.split(), from_end=False)
        if words:
            later.append(" ".join(words))
        if part.strip() and len(words) < len(part.split()):
            break
    return [part for part in earlier + later if not _COUNTRY.match(part)]


def _address_words(words: list[str], *, from_end: bool) -> list[str]:
    """The run of address words at the end (or start) of ``words``."""
    ordered = list(reversed(words)) if from_end else words
    run: list[str] = []
    for word in ordered:
        if _NOT_ADDRESS.fullmatch(word) or not _EN_WORD.fullmatch(word):
            break
        run.append(word)
    return list(reversed(run)) if from_end else run


def _take_prefecture(parts: list[str]) -> tuple[str, list[str]]:
    """The prefecture among the parts (the last named), and the parts without it.

    A designated city named like its prefecture ("Hakata-ku, Fukuoka") is kept as the city
    when no other city is written: it is then both.
    """
    for index in reversed(range(len(parts))):
        part = parts[index]
        prefecture, part = prefecture_canonical(part), ""
        if prefecture is None:
            prefecture, part = _prefecture_at_edge(parts[index])
        if prefecture is None:
            continue
        others = [p for i, p in enumerate(parts) if i != index]
        if _doubles_as_city(parts[index], prefecture, others):
            return prefecture, parts
        return prefecture, [*others[:index], *([part] if part else []), *others[index:]]
    return "", parts


def _prefecture_at_edge(part: str) -> tuple[str | None, str]:
    """A prefecture written in the same part as other words, first or last ("Kanagawa-ken
    Yokohama-shi …", "… Nagoya Aichi"): the prefecture, and the part without it."""
    words = part.split()
    for size in (2, 1):
        if len(words) > size:
            head, tail = " ".join(words[:size]), " ".join(words[-size:])
            if (prefecture := prefecture_canonical(tail)) is not None:
                return prefecture, " ".join(words[:-size])
            if (prefecture := prefecture_canonical(head)) is not None:
                return prefecture, " ".join(words[size:])
    return None, part


def _doubles_as_city(written: str, prefecture: str, others: list[str]) -> bool:
    return (
        not _PREFECTURE_SUFFIX.search(written)
        and city_prefecture(written) == prefecture
        and any(_WARD.search(part) for part in others)
        and not any(_CITY.search(part) or city_prefecture(part) for part in others)
    )
