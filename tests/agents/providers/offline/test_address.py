"""find_address: the new delivery address in a customer's words, Japanese or English order."""

from __future__ import annotations

import pytest

from agents.providers.offline.understanding.address import FoundAddress, find_address

GINZA = FoundAddress("104-0061", "東京都", "中央区銀座1-2-3")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("お届け先を〒104-0061 東京都中央区銀座1-2-3に変更してください。", GINZA),
        ("104-0061 東京都中央区銀座1-2-3へ送ってください", GINZA),
        ("〒１０４－００６１　東京都中央区銀座１－２－３", GINZA),
        (
            "ORD-4011の届け先を変更したいです。"
            "新しい住所は〒530-0001 大阪府大阪市北区梅田1-1です。",
            FoundAddress("530-0001", "大阪府", "大阪市北区梅田1-1"),
        ),
        (
            "住所変更お願いします\n〒060-0001\n北海道札幌市中央区北一条西2丁目\nよろしくお願いします",
            FoundAddress("060-0001", "北海道", "札幌市中央区北一条西2丁目"),
        ),
        (
            "〒104-0061 東京都中央区銀座1-2-3 サンプルビル5Fでお願いします",
            FoundAddress("104-0061", "東京都", "中央区銀座1-2-3 サンプルビル5F"),
        ),
    ],
)
def test_japanese_addresses_postal_code_first(text: str, expected: FoundAddress) -> None:
    assert find_address(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "1-2-3 Ginza, Chuo-ku, Tokyo 104-0061",
            FoundAddress("104-0061", "東京都", "1-2-3 Ginza, Chuo-ku"),
        ),
        (
            "Please change the delivery address of ORD-8011 to "
            "1-2-3 Ginza, Chuo-ku, Tokyo 104-0061.",
            FoundAddress("104-0061", "東京都", "1-2-3 Ginza, Chuo-ku"),
        ),
        (
            "Can you send it to 2-5-1 Umeda, Kita-ku, Osaka-fu 530-0001 instead?",
            FoundAddress("530-0001", "大阪府", "2-5-1 Umeda, Kita-ku"),
        ),
        (
            "My new address: 4-1 Sakae, Naka-ku, Nagoya, Aichi 460-0008, Japan",
            FoundAddress("460-0008", "愛知県", "4-1 Sakae, Naka-ku, Nagoya"),
        ),
        (
            "Ship to Sakura Heights 301, 3-4-5 Shibuya, Shibuya-ku, Tokyo, 150-0002 please",
            FoundAddress("150-0002", "東京都", "Sakura Heights 301, 3-4-5 Shibuya, Shibuya-ku"),
        ),
    ],
)
def test_english_addresses_prefecture_and_postal_code_last(
    text: str, expected: FoundAddress
) -> None:
    assert find_address(text) == expected


def test_a_postal_code_alone_is_found_incomplete() -> None:
    found = find_address("〒104-0061に変更してください")

    assert found == FoundAddress("104-0061", "", "")
    assert found is not None
    assert not found.complete


def test_the_last_complete_address_wins() -> None:
    text = (
        "〒530-0001 大阪府大阪市北区梅田1-1に変更したいです\n"
        "すみません、〒104-0061 東京都中央区銀座1-2-3 でした"
    )

    assert find_address(text) == GINZA


@pytest.mark.parametrize(
    "text",
    [
        "I want to change my delivery address",
        "届け先を変更したいです",
        "Where is my parcel 4821-7730-1195?",
        "ORD-4002 の配送状況を教えてください",
        "Order 1234567 was charged ¥3,980",
    ],
)
def test_no_address_is_found_where_none_is_given(text: str) -> None:
    assert find_address(text) is None


def test_the_parts_are_the_tool_arguments() -> None:
    assert GINZA.as_args() == {
        "postal_code": "104-0061",
        "prefecture": "東京都",
        "address_line": "中央区銀座1-2-3",
    }
