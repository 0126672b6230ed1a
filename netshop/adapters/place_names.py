"""The carrier's depots and the shop's warehouse in English, for English-speaking customers.

Carriers report their scans with Japanese place names ("ヤマト運輸 羽田クロノゲート"); an
English reply must not carry them. The names the shop's parcels pass through are listed
here once, in both languages: the demo's data is drawn from this table, and the carrier
adapter and the shop's own records give each scan's English name from it. A place missing
from the table has no English name (``""``): a reply in English then leaves the place out
rather than show it in Japanese.
"""

from __future__ import annotations

from typing import Final

WAREHOUSE: Final = "NetShop 千葉物流センター"
HUB: Final = "ヤマト運輸 羽田クロノゲート"
DEPOTS: Final = (
    "東京 世田谷センター",
    "横浜 港北センター",
    "名古屋 中センター",
    "大阪 中央センター",
    "福岡 博多センター",
    "札幌 北センター",
    "那覇 センター",
    "仙台 青葉センター",
)
ENGLISH: Final[dict[str, str]] = {
    WAREHOUSE: "NetShop Chiba Distribution Center",
    HUB: "Yamato Transport Haneda Chronogate",
    "東京 世田谷センター": "Tokyo Setagaya Depot",
    "横浜 港北センター": "Yokohama Kohoku Depot",
    "名古屋 中センター": "Nagoya Naka Depot",
    "大阪 中央センター": "Osaka Chuo Depot",
    "福岡 博多センター": "Fukuoka Hakata Depot",
    "札幌 北センター": "Sapporo Kita Depot",
    "那覇 センター": "Naha Depot",
    "仙台 青葉センター": "Sendai Aoba Depot",
}
# Carriers by the code the shop stores, in both languages.
CARRIERS: Final[dict[str, dict[str, str]]] = {
    "yamato": {"ja": "ヤマト運輸", "en": "Yamato Transport"},
    "sagawa": {"ja": "佐川急便", "en": "Sagawa Express"},
    "japan post": {"ja": "日本郵便", "en": "Japan Post"},
}


def place_name_en(location: str) -> str:
    """``location``'s English name; ``""`` when it has none (never the Japanese one)."""
    if location.isascii():
        return location
    return ENGLISH.get(location.strip(), "")


def carrier_name(carrier: str, language: str) -> str:
    """A carrier's name in ``language``; ``""`` for a carrier the table lacks."""
    return CARRIERS.get(carrier.strip().lower(), {}).get(language, "")
