"""A customer's details are taken out of an exchange before it becomes an article draft
(issue 27, part 3): each kind of detail becomes a placeholder in the article's language, and
the shop's own facts (a window, a fee, a city's name in a general answer) stay."""

from __future__ import annotations

import pytest

from operators.knowledge.redaction import customer_details_stripped


def stripped(text: str, language: str = "en", known: tuple[str, ...] = ()) -> str:
    return customer_details_stripped(text, language=language, known=known)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Your order ORD-4711 has shipped.", "Your order [order number] has shipped."),
        ("about ord 12 and ORD_13", "about [order number] and [order number]"),
        ("Tracking: 1234-5678-9012", "Tracking: [tracking number]"),
        ("Tracking: 123456789012.", "Tracking: [tracking number]."),
        ("Write to taro.yamada+shop@example.co.jp today", "Write to [email address] today"),
        ("Call 090-1234-5678 or 03 1234 5678", "Call [phone number] or [phone number]"),
        ("Call +81 90 1234 5678.", "Call [phone number]."),
        ("Postal code 150-0001, or 〒060-0001", "Postal code [postal code], or [postal code]"),
        ("Ships to 1-2-3 Jingumae, Shibuya-ku, Tokyo.", "Ships to [address]."),
        ("Dear Jane Smith, thank you.", "Dear [name], thank you."),
        ("Mr. Brown will call, Ms Sato too.", "[name] will call, [name] too."),
        ("Use SORRY-AB12CD at checkout.", "Use [coupon code] at checkout."),
    ],
)
def test_each_kind_of_detail_in_english_becomes_its_placeholder(text: str, expected: str) -> None:
    assert stripped(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("山田太郎様、ご連絡ありがとうございます。", "［お名前］様、ご連絡ありがとうございます。"),
        ("佐藤さんのご注文ＯＲＤ－４５６です。", "［お名前］さんのご注文［注文番号］です。"),
        (
            "〒460-0008 愛知県名古屋市中区栄3-4-5 にお届けします。",
            "［郵便番号］ ［住所］ にお届けします。",
        ),
        ("大阪市北区梅田1-1ハイツ101号、電話 06-1234-5678", "［住所］、電話 ［電話番号］"),
        ("追跡番号は１２３４-５６７８-９０１２です。", "追跡番号は［追跡番号］です。"),
    ],
)
def test_each_kind_of_detail_in_japanese_becomes_its_placeholder(text: str, expected: str) -> None:
    assert stripped(text, "ja") == expected


def test_the_details_the_caller_knows_go_whatever_their_form() -> None:
    text = "hanako yamada wrote from Room 5, Green Villa; HANAKO YAMADA is our customer."

    assert stripped(text, known=("Hanako Yamada", "Room 5, Green Villa", "x")) == (
        "[customer detail] wrote from [customer detail]; [customer detail] is our customer."
    )


@pytest.mark.parametrize(
    "text",
    [
        "返品は商品到着後7日以内に受け付けます。送料は550円です。",
        "お客様のご注文は、担当者様からご連絡します。皆様にお知らせします。",
        "東京都内へは翌日にお届けします。",
        "Returns are accepted within 7 days; we ship in 2 days to Tokyo and Osaka.",
        "Hi there, we are open from 10:00 to 18:00, Monday to Friday.",
    ],
)
def test_the_shops_own_facts_stay(text: str) -> None:
    assert stripped(text, "ja" if text.isascii() is False else "en") == text
