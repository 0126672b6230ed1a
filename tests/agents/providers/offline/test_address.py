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
            "新しい住所は〒542-0076 大阪府大阪市中央区難波1-1です。",
            FoundAddress("542-0076", "大阪府", "大阪市中央区難波1-1"),
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
            "Can you send it to 2-5-1 Namba, Chuo-ku, Osaka-fu 542-0076 instead?",
            FoundAddress("542-0076", "大阪府", "2-5-1 Namba, Chuo-ku"),
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Please move the parcel to 〒650-0022, 3-7-2 Motomachi-dori, Chuo-ku, Kobe, Hyogo.",
            FoundAddress("650-0022", "兵庫県", "3-7-2 Motomachi-dori, Chuo-ku, Kobe"),
        ),
        (
            "New address for the order: 060-0042 5-1 Odori-nishi, Chuo-ku, Sapporo, Hokkaido",
            FoundAddress("060-0042", "北海道", "5-1 Odori-nishi, Chuo-ku, Sapporo"),
        ),
        (
            "It should go to Miyagi-ken, Sendai-shi, Aoba-ku, Ichibancho 4-9 980-0811 thanks",
            FoundAddress("980-0811", "宮城県", "Sendai-shi, Aoba-ku, Ichibancho 4-9"),
        ),
        (
            "send it here instead: 7-3 Honcho, Naka-ku, Hiroshima 730-0012",
            FoundAddress("730-0012", "広島県", "7-3 Honcho, Naka-ku, Hiroshima"),
        ),
        (
            "Deliver to Green Court 402, 2-8 Tenjin, Chuo-ku, Fukuoka-shi, 810-0001",
            FoundAddress("810-0001", "福岡県", "Green Court 402, 2-8 Tenjin, Chuo-ku, Fukuoka-shi"),
        ),
        (
            "My address changed. 〒430-0944 Naka-ku Tamachi 9-9 Hamamatsu Shizuoka",
            FoundAddress("430-0944", "静岡県", "Naka-ku Tamachi 9-9 Hamamatsu"),
        ),
    ],
)
def test_english_addresses_postal_code_first_or_prefecture_left_out(
    text: str, expected: FoundAddress
) -> None:
    """The parts come in any order; a ward's designated city names a missing prefecture,
    and a city named like its prefecture is kept as the city when no other is written."""
    assert find_address(text) == expected


def test_an_order_number_next_to_the_postal_code_is_not_part_of_the_address() -> None:
    found = find_address("Change ORD-7001 150-0041 1-9 Jinnan, Shibuya-ku, Tokyo")

    assert found == FoundAddress("150-0041", "東京都", "1-9 Jinnan, Shibuya-ku")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "届け先を〒980-0811 仙台市青葉区一番町4-9に変えてください",
            FoundAddress("980-0811", "宮城県", "仙台市青葉区一番町4-9"),
        ),
        (
            "〒812-0012 福岡市博多区博多駅中央街8-1 でお願いします",
            FoundAddress("812-0012", "福岡県", "福岡市博多区博多駅中央街8-1"),
        ),
    ],
)
def test_a_japanese_address_without_its_prefecture_takes_it_from_the_city(
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
        "〒542-0076 大阪府大阪市中央区難波1-1に変更したいです\n"
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
