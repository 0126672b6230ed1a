"""The name a receipt is to be made out to (宛名), as the customer wrote it."""

from __future__ import annotations

import re
from typing import Final

from agents.support.text import normalize

# 宛名: 「宛名は株式会社サンプルで」「宛名：山田商店」「宛名 株式会社サンプル様」
# 「会社名は山田商店です」「株式会社サンプル宛て」. Text is NFKC-normalised: （） are ().
_ADDRESSEE_JA: Final = re.compile(
    r"(?:宛名|あて名|会社名)\s*(?:は|を|:|：|に)?\s*[「『]?(?P<name>[^」』、。()\n]{1,40}?)[」』]?\s*"
    r"(?:様|さま|御中)?\s*(?:で|に|宛|と(?=して|書|記|お願|い)|です|。|、|\)|\n|$)"
    r"|[「『]?(?P<name2>[^\s「『」』、。()]{2,40}?)[」』]?\s*(?:様|御中)?\s*(?:宛て|宛)(?:で|に|の)"
)

# What comes before a name written "...宛で" in the same run of text: the order and the
# document ("ORD-1の領収書を株式会社サンプル宛で" is made out to 株式会社サンプル).
_LEAD_JA: Final = re.compile(r"^.*(?:領収[書証]|レシート|[A-Z]+-\d+)(?:の|を|は)")

# "addressed to", "made out to", "make it out to", "in the name of", "addressee:",
# "company name is", "the receipt to ...": the words are matched in any case, the name
# starts with a capital (or a digit), and may end in a company suffix ("Co., Ltd.").
_ADDRESSEE_EN: Final = re.compile(
    r"\b(?i:addressed\s+to|(?:made|make|write|written)\b[^.?!\n]{0,40}?\bout\s+to|"
    r"in\s+the\s+name\s+of|under\s+the\s+name(?:\s+of)?|"
    r"(?:the\s+)?name\s+on\s+(?:it|the\s+receipt|the\s+invoice)(?:\s+should\s+be|\s+is)?|"
    r"for\s+the\s+company|addressee(?:\s+name)?(?:\s+should\s+be|\s+is|\s+as)?|"
    r"company\s+name(?:\s+should\s+be|\s+is)?|(?:receipt|invoice)\s+(?:issued\s+|made\s+)?to)"
    r"\s*:?\s*[\"']?(?P<name>[A-Z0-9][^\"'\n,.;!?()]{0,58}?"
    r"(?:,?\s*\b(?:Inc|Ltd|Co|Corp|K\.K|LLC|GmbH)\b\.?)*)[\"']?"
    r"(?=$|\s*[,.;!?\n)]|\s+(?i:please|thanks|thank|and|for|if)\b)",
)

# An amount where a name was looked for ("make it out to 12,800 yen", "12,800円宛で"), or the
# part of one before its comma: not a name, so none (the shop refuses what mixes the two).
_AMOUNT_ONLY: Final = re.compile(r"[¥$]?\s*[\d,.]+\s*(?:円|yen|jpy|dollars?)?\s*-?", re.IGNORECASE)


def find_addressee(text: str) -> str:
    """The name a receipt is to be made out to (宛名), as the customer wrote it; '' if none."""
    plain = normalize(text)
    match = _ADDRESSEE_JA.search(plain) or _ADDRESSEE_EN.search(plain)
    if match is None:
        return ""
    name = match.group("name") or ""
    if not name and match.groupdict().get("name2"):
        name = _LEAD_JA.sub("", match.group("name2"))
    name = re.sub(r"\s*(?:様|さま|御中)$", "", name.strip(" 　「」『』\"'")).strip()
    if re.fullmatch(r"[A-Z]+-\d+", name) or _AMOUNT_ONLY.fullmatch(name):
        return ""
    return name
