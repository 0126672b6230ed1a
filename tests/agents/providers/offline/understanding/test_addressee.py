"""The name a receipt is made out to (宛名), however the customer puts it. Pure."""

from __future__ import annotations

import pytest

from agents.providers.offline.understanding.addressee import find_addressee


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "Could you send a receipt for ORD-8120? Addressed to Brightwater Studio LLC, please.",
            "Brightwater Studio LLC",
        ),
        ("receipt for ORD-8121, addressed to Kestrel Foods Co., Ltd.", "Kestrel Foods Co., Ltd."),
        ("Can you make the receipt out to Pinecone Analytics?", "Pinecone Analytics"),
        ("I need one for ORD-8122 with the addressee Tidewater Inc.", "Tidewater Inc."),
        ('Please issue the receipt to "Silver Fern Consulting".', "Silver Fern Consulting"),
        ("receipt for ORD-8123 - company name: Lumen Works Ltd", "Lumen Works Ltd"),
        ("A receipt in the name of Harbour Lane Partners and thanks", "Harbour Lane Partners"),
        ("ORD-8124の領収書、宛名は三つ葉工業株式会社様でお願いします", "三つ葉工業株式会社"),
        ("ORD-8125の領収書を株式会社しらかば宛てで発行してください", "株式会社しらかば"),
        ("ORD-8126の領収書を有限会社こだま様宛でお願いします", "有限会社こだま"),
        ("領収書（宛名 合同会社みなと）をください", "合同会社みなと"),
        ("領収書の宛名は株式会社あおば 御中でお願いします", "株式会社あおば"),
        ("領収書が欲しいです。会社名は株式会社ひばりです", "株式会社ひばり"),
        ("宛名 丸福工業株式会社 様 でORD-8127の領収書を", "丸福工業株式会社"),
    ],
)
def test_the_name_asked_for_is_found_whole(text: str, name: str) -> None:
    assert find_addressee(text) == name


@pytest.mark.parametrize(
    "text",
    [
        "Can I get a receipt for ORD-8128 for my records?",
        "Receipt for ORD-8129 please, thanks",
        "ORD-8130の領収書をお願いします",
        "領収書を発行してもらえますか",
    ],
)
def test_no_name_asked_for_no_name_found(text: str) -> None:
    assert find_addressee(text) == ""


@pytest.mark.parametrize(
    "text",
    [
        "Please make the receipt out to 12,800 yen.",
        "Please send the receipt to 999,999 yen (tax incl.)",
        "Can you issue the receipt to $999,999 total?",
        "ORD-8131の領収書を12,800円宛でお願いします",
        "ORD-8132の領収書をお願いします。金額は12,800円です。",
    ],
)
def test_an_amount_is_never_taken_for_a_name(text: str) -> None:
    # Given an amount where a name would be (or a part of one, "12" of "12,800"), then no
    # name: the receipt goes to the customer, whose name the reply shows.
    assert find_addressee(text) == ""


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("宛名は山田商店 金額¥999,999でお願いします", "山田商店 金額¥999,999"),
        ("Receipt for ORD-8133 addressed to Acme Ltd Total 999999 please", "Acme Ltd Total 999999"),
    ],
)
def test_a_name_with_an_amount_is_read_whole_for_the_shop_to_refuse(text: str, name: str) -> None:
    # Never cut down to the name part: the customer is told why the shop refused what they
    # wrote rather than issued something else.
    assert find_addressee(text) == name
