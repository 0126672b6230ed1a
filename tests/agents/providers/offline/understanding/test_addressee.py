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
