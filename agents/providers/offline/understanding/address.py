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
from netshop.addresses import PREFECTURES, prefecture_canonical

_POSTAL: Final = r"(?<![\d-])(\d{3})[-\u2010-\u2015\u2212\u30fc]?(\d{4})(?![\d-])"
_JA_PREFECTURES: Final = "|".join(sorted((name for name, _ in PREFECTURES), key=len, reverse=True))
_ROMAJI: Final = "|".join(romaji for _, romaji in PREFECTURES)
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
_EN_ADDRESS: Final = re.compile(
    rf"(?P<rest>[^:;\n.!?]*?)[,\s]+(?P<prefecture>{_ROMAJI})(?:[-\s](?:to|fu|ken))?"
    rf"(?:\s+prefecture)?[,\s]+(?:Japan[,\s]+)?〒?\s*{_POSTAL}",
    re.IGNORECASE,
)
# Words before the street that belong to the request: "please send it to", "my new address is".
_EN_LEAD: Final = re.compile(
    r"^.*?\b(?i:to|is|at|address)\b\s*:?\s*(?=\d|(?:[A-Z][\w'-]*\s)+\d)|^.*?:\s*"
)


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
    candidates: list[FoundAddress | None] = [_japanese(m) for m in _JA_ADDRESS.finditer(plain)]
    candidates += [_english(match) for match in _EN_ADDRESS.finditer(plain)]
    found = [address for address in candidates if address is not None]
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
    return FoundAddress(_postal(match), prefecture, rest if prefecture else "")


def _english(match: re.Match[str]) -> FoundAddress | None:
    # Groups: rest, prefecture, then the postal code's two halves.
    prefecture = prefecture_canonical(match.group("prefecture")) or ""
    rest = _EN_LEAD.sub("", match.group("rest")).strip(" ,")
    postal = f"{match.group(3)}-{match.group(4)}"
    if not prefecture or not re.search(r"\d", rest):
        return None
    return FoundAddress(postal, prefecture, rest)
