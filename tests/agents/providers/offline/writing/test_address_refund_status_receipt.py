"""The reply to an address change, a refund status and a receipt, in Japanese and English.

Pure: briefs built by hand as the supervisor builds them. Today is Mon 2025-12-01.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.providers.offline.writing import write_reply
from agents.support.catalogue import CATALOGUES

GINZA = {"postal_code": "104-0061", "prefecture": "東京都", "address_line": "中央区銀座1-2-3"}


def brief(lang: str, intent: str, agent: str, **tools: Any) -> dict[str, Any]:
    envelope = {"status": "success", "data": tools, "message": "", "error_code": None}
    return {
        "language": lang,
        "today": "2025-12-01",
        "inquiry": "…",
        "intent": intent,
        "secondary_intents": [],
        "results": {agent: envelope},
        "not_checked": [],
        "pending_actions": [],
        "action_results": [],
        "escalation": None,
    }


def changed(order_number: str = "ORD-4011") -> dict[str, Any]:
    change = {"order_number": order_number, **GINZA, "booking_id": "bk_1"}
    return {"change_shipping_address": {"address_change": change}}


def refunds(*made: tuple[int, str]) -> dict[str, Any]:
    rows = [{"amount": a, "status": "completed", "refunded_at": at} for a, at in made]
    status = {"order_number": "ORD-4012", "payment_status": "refunded", "refunds": rows}
    return {"refund_status": {"refund_status": status}}


def receipt(
    reissue: bool = False, addressee: str = "株式会社サンプル", **more: Any
) -> dict[str, Any]:
    issued = {
        "number": "R202512-000003",
        "order_number": "ORD-4003",
        "addressee": addressee,
        "amount": 12800,
        "reissue": reissue,
        **more,
    }
    return {"issue_receipt": {"receipt": issued}}


def test_the_catalogues_have_the_same_keys() -> None:
    assert CATALOGUES["ja"].keys() == CATALOGUES["en"].keys()


def test_the_new_address_is_confirmed_in_japanese() -> None:
    reply = write_reply(brief("ja", "change_shipping_address", "shipping", **changed()))

    assert (
        "ご注文 ORD-4011のお届け先を、「〒104-0061 東京都中央区銀座1-2-3」に変更いたしました。"
        in reply
    )


def test_the_new_address_is_confirmed_in_english_with_the_prefecture_in_english() -> None:
    change = {"order_number": "ORD-8011", "postal_code": "104-0061", "prefecture": "東京都"}
    change["address_line"] = "1-2-3 Ginza, Chuo-ku"
    tools = {"change_shipping_address": {"address_change": change}}

    reply = write_reply(brief("en", "change_shipping_address", "shipping", **tools))

    assert (
        "We have updated the delivery address of order ORD-8011 to 1-2-3 Ginza, Chuo-ku, "
        "Tokyo 104-0061." in reply
    )
    assert "東京都" not in reply


@pytest.mark.parametrize(
    ("lang", "status", "expected"),
    [
        ("ja", "shipped", "すでに配送業者にお渡ししているため、お届け先を変更できませんでした"),
        ("ja", "delivered", "すでにお届け済みのため、お届け先を変更することはできません"),
        ("en", "shipped", "has already been handed to the carrier, so its delivery address"),
        ("en", "delivered", "has already been delivered, so its delivery address"),
    ],
)
def test_a_parcel_that_left_is_refused_with_the_reason(
    lang: str, status: str, expected: str
) -> None:
    reason = f"The address can only change before the parcel leaves (ORD-4002 is {status})."
    tools = {"change_shipping_address": {"refused": "address_change_not_allowed", "reason": reason}}

    reply = write_reply(brief(lang, "change_shipping_address", "shipping", **tools))

    assert expected in reply
    assert "ORD-4002" in reply


def test_a_refund_made_says_how_much_and_when() -> None:
    ja = write_reply(
        brief("ja", "refund_status", "payment", **refunds((7480, "2025-11-26T10:15:00+09:00")))
    )
    en = write_reply(
        brief("en", "refund_status", "payment", **refunds((7480, "2025-11-26T10:15:00+09:00")))
    )

    assert "ご注文 ORD-4012について、11月26日(水)に7,480円の返金手続きが完了しております。" in ja
    assert "A refund of ¥7,480 for order ORD-4012 was completed on Wed, Nov 26." in en


def test_several_refunds_are_listed() -> None:
    tools = refunds((2200, "2025-11-20T10:00:00+09:00"), (1000, "2025-11-25T10:00:00+09:00"))

    reply = write_reply(brief("en", "refund_status", "payment", **tools))

    assert "These refunds for order ORD-4012 have been completed:\n- Thu, Nov 20: ¥2,200\n" in reply
    assert "- Tue, Nov 25: ¥1,000" in reply


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_refund_says_so_and_offers_none(lang: str) -> None:
    reply = write_reply(brief(lang, "refund_status", "payment", **refunds()))

    none = {
        "ja": "現在のところ返金のお手続きの記録はございません",
        "en": "There is no refund on record",
    }
    assert none[lang] in reply
    for offer in ("返金のご依頼を承りました", "返金いたします", "we will refund", "refund request"):
        assert offer not in reply


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ja", "ご注文 ORD-4012の返金（16,100円）のご依頼は、現在担当スタッフが確認しております。"),
        ("en", "Your request for a refund of ¥16,100 on order ORD-4012 is being reviewed"),
    ],
)
def test_a_refund_waiting_for_approval_is_told_once_and_not_denied(
    lang: str, expected: str
) -> None:
    tools = refunds()
    waiting = [{"amount": 16100, "requested_at": "2025-12-01T09:00:00+09:00"}] * 2
    tools["refund_status"]["refund_status"]["awaiting_approval"] = waiting

    reply = write_reply(brief(lang, "refund_status", "payment", **tools))

    assert reply.count(expected) == 1
    assert "記録はございません" not in reply
    assert "no refund on record" not in reply


def test_a_receipt_issued_says_its_number_name_amount_and_where_to_get_it() -> None:
    ja = write_reply(brief("ja", "issue_receipt", "payment", **receipt()))
    en = write_reply(brief("en", "issue_receipt", "payment", **receipt()))

    assert "領収書番号 R202512-000003、宛名: 株式会社サンプル 様、金額 12,800円" in ja
    assert "「領収書（PDF）」のリンク" in ja
    assert "receipt number R202512-000003, addressed to 株式会社サンプル, ¥12,800" in en
    assert "download it as a PDF" in en


def test_a_reissue_says_it_keeps_the_number() -> None:
    ja = write_reply(brief("ja", "issue_receipt", "payment", **receipt(reissue=True)))
    en = write_reply(brief("en", "issue_receipt", "payment", **receipt(reissue=True)))

    assert "再発行いたしました（領収書番号は前回と同じ R202512-000003" in ja
    assert "We have reissued the receipt for order ORD-4003 (the same receipt number" in en


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ja", "お支払いが確定していないため、領収書を発行できませんでした"),
        ("en", "cannot issue a receipt"),
    ],
)
def test_an_unpaid_order_is_told_why_there_is_no_receipt(lang: str, expected: str) -> None:
    reason = "A receipt is only issued for a paid order (ORD-4001 is not paid)."
    tools = {"issue_receipt": {"refused": "receipt_not_paid", "reason": reason}}

    reply = write_reply(brief(lang, "issue_receipt", "payment", **tools))

    assert expected in reply
    assert "ORD-4001" in reply


def test_the_addressee_is_shown_as_printed_with_one_honorific() -> None:
    company = receipt(addressee="株式会社ネットショップ 御中")
    ja = write_reply(brief("ja", "issue_receipt", "payment", **company))
    en = write_reply(brief("en", "issue_receipt", "payment", **receipt(addressee="Acme Ltd.")))

    assert "宛名: 株式会社ネットショップ 御中、金額 12,800円" in ja
    assert "御中 様" not in ja
    assert "addressed to Acme Ltd., ¥12,800" in en


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ja", "金額は、お支払いいただいた15,600円から返金済みの2,800円を差し引いた額です。"),
        ("en", "The amount is what you paid, ¥15,600, less the ¥2,800 already refunded."),
    ],
)
def test_a_partly_refunded_order_is_told_why_the_amount_is_less(lang: str, expected: str) -> None:
    reply = write_reply(brief(lang, "issue_receipt", "payment", **receipt(refunded=2800)))

    assert expected in reply


def test_a_receipt_with_nothing_refunded_says_nothing_of_refunds() -> None:
    ja = write_reply(brief("ja", "issue_receipt", "payment", **receipt(refunded=0)))

    assert "返金" not in ja


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ja", "ご注文 ORD-4012はお支払いいただいた代金を全額返金済みのため"),
        ("en", "Order ORD-4012 was refunded in full, so there is no payment left for a receipt"),
    ],
)
def test_a_refunded_order_is_told_it_was_refunded_not_unpaid(lang: str, expected: str) -> None:
    reason = "ORD-4012 was refunded in full: there is no payment left to issue a receipt for."
    tools = {"issue_receipt": {"refused": "receipt_fully_refunded", "reason": reason}}

    reply = write_reply(brief(lang, "issue_receipt", "payment", **tools))

    assert expected in reply
    assert "確定していない" not in reply
    assert "not been completed" not in reply


@pytest.mark.parametrize(
    ("lang", "variant", "expected"),
    [
        ("ja", "amount", "ご指定の宛名に金額・通貨記号・税などの語句が含まれているため"),
        ("ja", "control", "印字できない制御文字（文字の向きを変える記号など）が含まれている"),
        ("ja", "too_long", "ご指定の宛名が60文字を超えているため"),
        ("ja", "", "宛名には個人名または会社名（例: 株式会社サンプル 御中）のみを記載できます"),
        ("en", "amount", "contains an amount, a currency sign or tax wording"),
        ("en", "control", "contains invisible control characters"),
        ("en", "too_long", "is longer than 60 characters"),
        ("en", "", "it can only be a person's or a company's name"),
    ],
)
def test_a_refused_addressee_is_told_why_and_what_to_send(
    lang: str, variant: str, expected: str
) -> None:
    refused = {"refused": "receipt_addressee_invalid", "reason": "(English, never shown)"}
    tools = {"issue_receipt": refused | ({"variant": variant} if variant else {})}

    reply = write_reply(brief(lang, "issue_receipt", "payment", **tools))

    assert expected in reply
    assert ("のみを改めてお知らせください" if lang == "ja" else "just the") in reply
    assert "¥" not in reply
    assert "English" not in reply
