"""The name a receipt is to be made out to (宛名), as the customer wrote it."""

from __future__ import annotations

import re
from typing import Final

from agents.support.text import normalize

# 宛名: 「宛名は株式会社サンプルで」「宛名：山田商店」「株式会社サンプル宛て」,
# "addressed to Acme Inc.", "made out to ...", "in the name of ...".
_ADDRESSEE_JA: Final = re.compile(
    r"(?:宛名|あて名)\s*(?:は|を|:|：|に)?\s*[「『]?(?P<name>[^」』、。\n]{1,40}?)[」』]?\s*"
    r"(?:様|さま)?\s*(?:で|に|宛|として|にして|でお願い|と|。|、|\n|$)"
    r"|[「『]?(?P<name2>[^\s「『」』、。]{2,40}?)[」』]?\s*(?:宛て|宛)(?:で|に|の)"
)


_ADDRESSEE_EN: Final = re.compile(
    r"\b(?:addressed to|made out to|in the name of|under the name(?: of)?|(?:the )?name on it"
    r"(?: should be| is)?|for the company)\s*:?\s*[\"']?(?P<name>[A-Z][^\"'\n,.;!?]{0,58}"
    r"?(?:\b(?:Inc|Ltd|Co|Corp|K\.K|LLC)\.?)?)[\"']?(?=$|[,.;!?\n]|\s+(?:please|thanks|and)\b)",
)


def find_addressee(text: str) -> str:
    """The name a receipt is to be made out to (宛名), as the customer wrote it; '' if none."""
    plain = normalize(text)
    match = _ADDRESSEE_JA.search(plain) or _ADDRESSEE_EN.search(plain)
    if match is None:
        return ""
    name = match.group("name") or match.groupdict().get("name2") or ""
    return re.sub(r"\s*(?:様|さま|御中)$", "", name.strip(" 　「」『』\"'")).strip()
