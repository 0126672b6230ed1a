"""Japanese postal addresses: the 47 prefectures, and what makes an address one the carrier takes.

Defined once here: the address-change service validates with it and the offline model's
parser (``agents.providers.offline.understanding.address``) reads prefectures with it. Pure: no
database.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Final

from netshop.errors import DomainError

# The 47 prefectures, north to south, with the romanised names customers write in English.
PREFECTURES: Final[tuple[tuple[str, str], ...]] = (
    ("北海道", "Hokkaido"),
    ("青森県", "Aomori"),
    ("岩手県", "Iwate"),
    ("宮城県", "Miyagi"),
    ("秋田県", "Akita"),
    ("山形県", "Yamagata"),
    ("福島県", "Fukushima"),
    ("茨城県", "Ibaraki"),
    ("栃木県", "Tochigi"),
    ("群馬県", "Gunma"),
    ("埼玉県", "Saitama"),
    ("千葉県", "Chiba"),
    ("東京都", "Tokyo"),
    ("神奈川県", "Kanagawa"),
    ("新潟県", "Niigata"),
    ("富山県", "Toyama"),
    ("石川県", "Ishikawa"),
    ("福井県", "Fukui"),
    ("山梨県", "Yamanashi"),
    ("長野県", "Nagano"),
    ("岐阜県", "Gifu"),
    ("静岡県", "Shizuoka"),
    ("愛知県", "Aichi"),
    ("三重県", "Mie"),
    ("滋賀県", "Shiga"),
    ("京都府", "Kyoto"),
    ("大阪府", "Osaka"),
    ("兵庫県", "Hyogo"),
    ("奈良県", "Nara"),
    ("和歌山県", "Wakayama"),
    ("鳥取県", "Tottori"),
    ("島根県", "Shimane"),
    ("岡山県", "Okayama"),
    ("広島県", "Hiroshima"),
    ("山口県", "Yamaguchi"),
    ("徳島県", "Tokushima"),
    ("香川県", "Kagawa"),
    ("愛媛県", "Ehime"),
    ("高知県", "Kochi"),
    ("福岡県", "Fukuoka"),
    ("佐賀県", "Saga"),
    ("長崎県", "Nagasaki"),
    ("熊本県", "Kumamoto"),
    ("大分県", "Oita"),
    ("宮崎県", "Miyazaki"),
    ("鹿児島県", "Kagoshima"),
    ("沖縄県", "Okinawa"),
)
PREFECTURE_NAMES: Final = frozenset(name for name, _ in PREFECTURES)
# The cities designated by ordinance (政令指定都市): the ones divided into wards ("Nishi-ku,
# Yokohama"), which customers often write without their prefecture.
DESIGNATED_CITIES: Final[tuple[tuple[str, str, str], ...]] = (
    ("札幌市", "Sapporo", "北海道"),
    ("仙台市", "Sendai", "宮城県"),
    ("さいたま市", "Saitama", "埼玉県"),
    ("千葉市", "Chiba", "千葉県"),
    ("川崎市", "Kawasaki", "神奈川県"),
    ("横浜市", "Yokohama", "神奈川県"),
    ("相模原市", "Sagamihara", "神奈川県"),
    ("新潟市", "Niigata", "新潟県"),
    ("静岡市", "Shizuoka", "静岡県"),
    ("浜松市", "Hamamatsu", "静岡県"),
    ("名古屋市", "Nagoya", "愛知県"),
    ("京都市", "Kyoto", "京都府"),
    ("大阪市", "Osaka", "大阪府"),
    ("堺市", "Sakai", "大阪府"),
    ("神戸市", "Kobe", "兵庫県"),
    ("岡山市", "Okayama", "岡山県"),
    ("広島市", "Hiroshima", "広島県"),
    ("北九州市", "Kitakyushu", "福岡県"),
    ("福岡市", "Fukuoka", "福岡県"),
    ("熊本市", "Kumamoto", "熊本県"),
)
_CITY_PREFECTURE: Final = {
    **{city: prefecture for city, _, prefecture in DESIGNATED_CITIES},
    **{romaji.lower(): prefecture for _, romaji, prefecture in DESIGNATED_CITIES},
}
ROMAJI_TO_PREFECTURE: Final = {romaji.lower(): name for name, romaji in PREFECTURES}
_POSTAL_CODE: Final = re.compile(r"^(\d{3})-?(\d{4})$")


@dataclasses.dataclass(frozen=True)
class JapaneseAddress:
    """A delivery address in Japan: postal code (NNN-NNNN), prefecture, and the rest."""

    postal_code: str
    prefecture: str
    address_line: str

    def as_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)

    def one_line(self) -> str:
        return f"〒{self.postal_code} {self.prefecture}{self.address_line}"


def prefecture_canonical(name: str) -> str | None:
    """The prefecture ``name`` means (東京都 for 東京, 東京都 or Tokyo), or None."""
    plain = unicodedata.normalize("NFKC", name).strip()
    if plain in PREFECTURE_NAMES:
        return plain
    # "Kyoto" and "Gifu" end like a suffix: the name as written is tried first.
    for romaji in (plain.lower(), re.sub(r"[-\s]?(?:to|fu|ken|prefecture)$", "", plain.lower())):
        if romaji.strip() in ROMAJI_TO_PREFECTURE:
            return ROMAJI_TO_PREFECTURE[romaji.strip()]
    bare = [full for full in PREFECTURE_NAMES if full != "北海道" and full[:-1] == plain]
    return bare[0] if len(bare) == 1 else None


def city_prefecture(name: str) -> str | None:
    """The prefecture of a designated city (神奈川県 for 横浜市, Yokohama, Yokohama-shi or
    Yokohama City), or None: a ward's city says its prefecture when the customer omits it."""
    plain = unicodedata.normalize("NFKC", name).strip()
    romaji = re.sub(r"(?:[-\s]shi|\s+city)$", "", plain.lower()).strip()
    return _CITY_PREFECTURE.get(plain) or _CITY_PREFECTURE.get(romaji)


def address_validate(*, postal_code: str, prefecture: str, address_line: str) -> JapaneseAddress:
    """The address in its canonical form, or ``DomainError("invalid_address")`` saying why.

    Full-width digits and hyphens are accepted (NFKC); the postal code comes back NNN-NNNN.
    """
    typed = unicodedata.normalize("NFKC", postal_code).strip().lstrip("〒").strip()
    match = _POSTAL_CODE.match(re.sub(r"[\u2010-\u2015\u2212\u30fc]", "-", typed))
    if match is None:
        raise DomainError("invalid_address", variant="postal_code", postal_code=postal_code)
    canonical = prefecture_canonical(prefecture)
    if canonical is None:
        raise DomainError("invalid_address", variant="prefecture", prefecture=prefecture)
    rest = unicodedata.normalize("NFKC", address_line).strip(" ,、　")
    if not rest:
        raise DomainError("invalid_address", variant="address_line")
    return JapaneseAddress(f"{match.group(1)}-{match.group(2)}", canonical, rest[:200])
