"""address_validate: a Japanese address the carrier takes, or the reason it is not one."""

from __future__ import annotations

import pytest

from netshop.addresses import (
    JapaneseAddress,
    address_validate,
    city_prefecture,
    prefecture_canonical,
)
from netshop.errors import DomainError


def test_a_full_width_postal_code_and_a_prefecture_are_made_canonical() -> None:
    address = address_validate(
        postal_code="〒１０４－００６１", prefecture="東京都", address_line=" 中央区銀座1-2-3 "
    )

    assert address == JapaneseAddress("104-0061", "東京都", "中央区銀座1-2-3")


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("東京都", "東京都"),
        ("東京", "東京都"),
        ("大阪", "大阪府"),
        ("北海道", "北海道"),
        ("Tokyo", "東京都"),
        ("Kyoto-fu", "京都府"),
        ("kanagawa ken", "神奈川県"),
        ("Osaka Prefecture", "大阪府"),
        # Names that end like a suffix ("-to", "-fu") are names first.
        ("Kyoto", "京都府"),
        ("Gifu", "岐阜県"),
        ("gifu-ken", "岐阜県"),
    ],
)
def test_prefectures_are_read_in_japanese_and_in_romaji(typed: str, canonical: str) -> None:
    assert prefecture_canonical(typed) == canonical


@pytest.mark.parametrize(
    ("postal_code", "prefecture", "line", "variant"),
    [
        ("104-006", "東京都", "中央区銀座1-2-3", "postal_code"),
        ("ABC-DEFG", "東京都", "中央区銀座1-2-3", "postal_code"),
        ("104-0061", "東京府", "中央区銀座1-2-3", "prefecture"),
        ("104-0061", "Gotham", "1-2-3 Ginza", "prefecture"),
        ("104-0061", "東京都", "  ", "address_line"),
    ],
)
def test_an_incomplete_address_is_refused_with_the_reason(
    postal_code: str, prefecture: str, line: str, variant: str
) -> None:
    with pytest.raises(DomainError) as refused:
        address_validate(postal_code=postal_code, prefecture=prefecture, address_line=line)

    assert (refused.value.code, refused.value.variant) == ("invalid_address", variant)


@pytest.mark.parametrize(
    ("city", "prefecture"),
    [
        ("横浜市", "神奈川県"),
        ("Yokohama", "神奈川県"),
        ("Sapporo-shi", "北海道"),
        ("Kobe City", "兵庫県"),
        ("kitakyushu", "福岡県"),
    ],
)
def test_a_designated_city_names_its_prefecture(city: str, prefecture: str) -> None:
    assert city_prefecture(city) == prefecture


@pytest.mark.parametrize("name", ["Shibuya", "Chuo-ku", "町田市", ""])
def test_other_places_name_no_prefecture(name: str) -> None:
    assert city_prefecture(name) is None
