"""The offline reply writer: briefs built by hand, replies checked for their exact key phrases.

Pure: no database, no network. Today is Mon 2025-12-01 in every brief.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing import write_reply
from agents.providers.offline.writing.refusals import REFUSAL_ALIASES
from agents.support.catalogue import CATALOGUES
from netshop.policy import policy_change, policy_in_force, policy_values

KNIFE = {
    "sku": "KNF-SANTOKU-180",
    "name": "堺打刃物 三徳包丁 18cm",
    "quantity": 1,
    "unit_price": 12800,
}
TEA = {
    "sku": "TEA-HOJI-GIFT",
    "name": "京都 ほうじ茶ギフトセット",
    "quantity": 2,
    "unit_price": 1990,
}
HUB = "ヤマト運輸 羽田クロノゲート"
HUB_EN = "Yamato Transport Haneda Chronogate"
CANCELLED_REASON = "order ORD-4005 is cancelled; only pending or confirmed orders can be cancelled"
SHIPPED_REASON = "order ORD-4005 is shipped; only pending or confirmed orders can be cancelled"
FAQ = {
    "ja": ("返品はできますか？", "商品到着後14日以内で、未使用の商品であれば返品を承ります。"),
    "en": ("Can I return an item?", "Unused items can be returned within 14 days of delivery."),
}


def brief(lang: str, intent: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"language": lang, "today": "2025-12-01", "inquiry": "…"}
    base["intent"] = intent
    empty: dict[str, Any] = {"secondary_intents": [], "results": {}, "not_checked": []}
    empty["pending_actions"] = []
    rest: dict[str, Any] = {"action_results": [], "escalation": None}
    return base | empty | rest | copy.deepcopy(fields)


def on(agent: str, **tools: Any) -> dict[str, Any]:
    return {agent: {"status": "success", "data": tools, "message": "", "error_code": None}}


def down(*agents: str) -> dict[str, Any]:
    error = {"status": "error", "data": {}, "message": "timeout", "error_code": "carrier_timeout"}
    return dict.fromkeys(agents, error)


def escalation(kind: str) -> dict[str, str]:
    return {"kind": kind, "reason": "tool_failure", "summary": "internal summary"}


def refused(code: str, reason: str = CANCELLED_REASON) -> dict[str, str]:
    return {"refused": code, "reason": reason}


def details(number: str = "ORD-4003", status: str = "delivered") -> dict[str, Any]:
    order = {"number": number, "status": status, "total": 16780, "lines": [KNIFE, TEA]}
    order["placed_at"] = "2025-11-27T16:30:00+00:00"  # 01:30 on the 28th in Japan
    order["payment"] = {"method": "card", "status": "captured", "captured": 16780, "refunded": 0}
    return {"order": order | {"shipment": None, "refunds": []}}


def tracked(status: str = "in_transit", *, fallback: bool = False) -> dict[str, Any]:
    event = {
        "time": "2025-12-01T00:12:00+00:00",
        "status": status,
        "location": HUB,
        "location_en": HUB_EN,
    }
    info: dict[str, Any] = {"tracking_number": "4821-7730-1195", "carrier": "Yamato"}
    info["status"] = status
    info |= {"scheduled_date": "2025-12-03", "events": [] if fallback else [event]}
    extra = {"fallback": True, "fallback_reason": "carrier_timeout"} if fallback else {}
    return {"tracking": info, "order_number": "ORD-4002"} | extra


def refund(amount: int = 12800, *, capped: bool = False) -> dict[str, Any]:
    params = {"order_number": "ORD-4003", "amount": amount, "reason": "破損"}
    return {"kind": "process_refund", "params": params, "capped": capped}


def decided(kind: str, outcome: str, decision: str = "approve", **extra: Any) -> dict[str, Any]:
    params = {"order_number": "ORD-4001", "reason": "customer request"} | extra.pop("params", {})
    result = {"action_id": "act-1", "kind": kind, "decision": decision, "operator": "op1"}
    return result | {"outcome": outcome, "params": params} | extra


def c(intent: str, **fields: Any) -> dict[str, Any]:
    return {"intent": intent, **fields}


SHIPPED = on("order", get_order_details=details("ORD-4002", "shipped"))
ORDERS = {"orders": [details("ORD-4004", "shipped")["order"], details()["order"]]}
REDELIVERY = {"order_number": "ORD-4004", "slot_date": "2025-12-06", "slot_window": "08-12"}
BOOKED = on(
    "shipping",
    track_shipment=tracked("absent_returned"),
    arrange_redelivery={"redelivery": REDELIVERY | {"booking_id": "BK-1"}},
)
DATE_CHANGE = {"order_number": "ORD-4002", "previous_date": "2025-12-03", "new_date": "2025-12-05"}
CHANGED = on("shipping", change_delivery_date={"date_change": DATE_CHANGE | {"booking_id": "BK-2"}})
GATEWAY: dict[str, Any] = {"payment_reference": "pay_secret", "status": "partially_refunded"}
GATEWAY |= {"authorized_amount": 16780, "captured_amount": 16780, "refunded_amount": 3980}
PAYMENT = {"payment": {"method": "card", "status": "captured"}, "gateway": GATEWAY}
PAID = on("payment", check_payment_status=PAYMENT | {"order_number": "ORD-4003"})
COUPON = {"code": "SORRY-ABCD234567", "value": 500, "expires_at": "2026-03-01", "reason": "late"}
NO_FAQ = on("faq", search_faq={"entries": []})
PENDING_CANCEL = {"kind": "cancel_order", "params": {"order_number": "ORD-4001"}, "capped": False}
REFUNDED = decided(
    "process_refund",
    "executed",
    params={"order_number": "ORD-4003", "amount": 12800},
    refund_amount=12800,
    gateway_refund_id="re_1",
)
CANCELLED = decided("cancel_order", "executed", authorization_released=True)
REJECTED = decided("process_refund", "declined", "reject", reason="The item was used")
REFUSED = decided(
    "cancel_order",
    "refused",
    params={"order_number": "ORD-4005"},
    code="order_not_cancellable",
    reason=SHIPPED_REASON,
)
FAILED = decided("process_refund", "failed", code="gateway_timeout", reason="gateway timed out")

CASES: dict[str, dict[str, Any]] = {
    "order_details": c("get_order_details", results=on("order", get_order_details=details())),
    "order_list": c("search_orders", results=on("order", search_orders=ORDERS)),
    "order_list_empty": c("search_orders", results=on("order", search_orders={"orders": []})),
    "tracking": c("track_shipment", results=SHIPPED | on("shipping", track_shipment=tracked())),
    "tracking_fallback": c(
        "track_shipment", results=on("shipping", track_shipment=tracked(fallback=True))
    ),
    "redelivery": c("arrange_redelivery", results=BOOKED),
    "date_change": c("change_delivery_date", results=CHANGED),
    "payment": c("check_payment_status", results=PAID),
    "coupon": c("apply_coupon", results=on("payment", apply_coupon={"coupon": COUPON})),
    "faq_none": c("search_faq", results=NO_FAQ, escalation=escalation("follow_up")),
    "cancel_refused": c(
        "cancel_order", results=on("order", cancel_order=refused("order_cancellable"))
    ),
    "pending_refund": c(
        "process_refund", pending_actions=[refund(capped=True)], escalation=escalation("approval")
    ),
    "pending_cancel": c("cancel_order", pending_actions=[PENDING_CANCEL]),
    "refund_done": c("process_refund", action_results=[REFUNDED]),
    "cancel_done": c("cancel_order", action_results=[CANCELLED]),
    "declined": c("process_refund", action_results=[REJECTED]),
    "refused_at_execution": c("cancel_order", action_results=[REFUSED]),
    "failed": c("process_refund", action_results=[FAILED], escalation=escalation("failure")),
    "not_checked": c(
        "track_shipment", results=SHIPPED | down("shipping"), not_checked=["shipping"]
    ),
    "all_failed": c(
        "track_shipment",
        results=down("order", "shipping"),
        not_checked=["order", "shipping"],
        escalation=escalation("failure"),
    ),
    "no_order": c("track_shipment", results=on("order") | on("shipping")),
    "contact_human": c("contact_human", results=NO_FAQ, escalation=escalation("customer_request")),
}


def case(name: str, lang: str) -> dict[str, Any]:
    if name == "faq":
        entry = dict(zip(("title", "body"), FAQ[lang], strict=True))
        article = entry | {"id": 1, "article": "returns", "version": 1, "category": "returns"}
        results = on("faq", answer_general_question={"answer": article | {"tags": []}})
        return brief(lang, "answer_general_question", results=results)
    return brief(lang, **CASES[name])


def reply_for(name: str, lang: str) -> str:
    return write_reply(case(name, lang))


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name", sorted([*CASES, "faq"]))
def test_no_internal_value_leaks_into_any_reply(name: str, lang: str) -> None:
    given = case(name, lang)
    frozen = copy.deepcopy(given)

    reply = write_reply(given)

    assert given == frozen  # the brief is not modified
    for leak in ("None", "null", "{", "}", "[", "pay_secret", "BK-", "act-1", "op1", "internal"):
        assert leak not in reply
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", reply), "an internal code reached the customer"
    assert "\n\n\n" not in reply
    if lang == "ja":
        ours = re.sub(r"「[^」]*」", "", reply)  # an operator's quoted words are theirs
        assert set(re.findall(r"[A-Za-z]{2,}", ours)) <= {"NetShop", "ORD", "SORRY", "ABCD", "cm"}
        assert reply.startswith("お問い合わせいただき")
        assert reply.endswith("今後ともNetShopをよろしくお願いいたします。")
    else:
        for name_in_japanese in (KNIFE["name"], TEA["name"]):
            reply = reply.replace(str(name_in_japanese), "")
        assert not fmt.has_japanese(reply)
        assert reply.startswith("Hello")
        assert reply.endswith("Thank you for shopping with NetShop.")


def test_order_details_list_items_amounts_and_the_japan_date() -> None:
    ja, en = reply_for("order_details", "ja"), reply_for("order_details", "en")

    assert "ご注文 ORD-4003（11月28日(金)ご注文）の内容は以下のとおりです。" in ja
    assert (
        "・堺打刃物 三徳包丁 18cm × 1点　12,800円\n・京都 ほうじ茶ギフトセット × 2点　3,980円" in ja
    )
    assert "合計 16,780円、現在のステータスは「お届け済み」です。" in ja
    assert "Here are the details of order ORD-4003 (placed Fri, Nov 28):" in en
    assert (
        "- 京都 ほうじ茶ギフトセット × 2: ¥3,980\nTotal: ¥16,780. Current status: delivered." in en
    )


def test_order_details_mention_refunds_and_the_parcel_when_shipping_was_not_asked() -> None:
    result = details(status="shipped")
    result["order"]["payment"]["refunded"] = 3980
    result["order"]["shipment"] = tracked()["tracking"]
    results = on("order", get_order_details=result)

    ja = write_reply(brief("ja", "get_order_details", results=results))
    en = write_reply(brief("en", "get_order_details", results=results))

    assert (
        "このうち3,980円は返金済みです。お荷物の状況は「配送中」で、お届け予定日は12月3日(水)です。"
        in ja
    )
    assert "¥3,980 of this has been refunded. Delivery status: in transit, scheduled for Wed" in en


def test_order_list_and_no_orders() -> None:
    assert "・ORD-4004（11月28日(金)ご注文）16,780円　発送済み" in reply_for("order_list", "ja")
    assert "- ORD-4004 (placed Fri, Nov 28): ¥16,780, shipped" in reply_for("order_list", "en")
    assert "該当するご注文は見つかりませんでした。" in reply_for("order_list_empty", "ja")


def test_tracking_answers_the_question_without_the_order_contents() -> None:
    ja, en = reply_for("tracking", "ja"), reply_for("tracking", "en")

    assert "ご注文 ORD-4002のお荷物（ヤマト運輸、お問い合わせ番号 4821-7730-1195）は" in ja
    assert "現在「配送中」です。お届け予定日は12月3日(水)です。" in ja
    assert f"最終更新: 12月1日(月) 9:12（{HUB}）" in ja
    assert "堺打刃物" not in ja  # they asked where the parcel is, not what is in it
    assert "(Yamato Transport, tracking number 4821-7730-1195) is currently in transit." in en
    assert (
        f"It is scheduled to arrive on Wed, Dec 3. Last update: Mon, Dec 1 at 9:12, {HUB_EN}." in en
    )


@pytest.mark.parametrize(
    ("status", "ja_word", "en_word"),
    [
        ("preparing", "出荷準備中", "being prepared for shipment"),
        ("in_transit", "配送中", "in transit"),
        ("out_for_delivery", "配達中", "out for delivery"),
        ("delivered", "配達完了", "delivered"),
        ("absent_returned", "ご不在のため持ち戻り", "back at the depot (nobody was home)"),
    ],
)
def test_shipment_status_words(status: str, ja_word: str, en_word: str) -> None:
    results = on("shipping", track_shipment=tracked(status))

    assert f"現在「{ja_word}」です。" in write_reply(brief("ja", "track_shipment", results=results))
    assert f"currently {en_word}." in write_reply(brief("en", "track_shipment", results=results))


def test_a_parcel_taken_back_invites_a_redelivery_until_one_is_booked() -> None:
    taken_back = on("shipping", track_shipment=tracked("absent_returned"))
    invitation = "ご希望の日付と時間帯をお知らせいただければ手配いたします。"
    assert invitation in write_reply(brief("ja", "track_shipment", results=taken_back))

    ja, en = reply_for("redelivery", "ja"), reply_for("redelivery", "en")

    assert (
        "ご注文 ORD-4004のお荷物の再配達を、12月6日(土) 午前中(8〜12時)で手配いたしました。" in ja
    )
    assert invitation not in ja
    assert "for order ORD-4004 on Sat, Dec 6, in the morning (8am-12pm)." in en


def test_date_change_and_carrier_fallback() -> None:
    assert "お届け日を、12月3日(水)から12月5日(金)に変更いたしました。" in reply_for(
        "date_change", "ja"
    )
    assert "of order ORD-4002 from Wed, Dec 3 to Fri, Dec 5." in reply_for("date_change", "en")
    assert "当店の記録にある状況をお知らせいたします。" in reply_for("tracking_fallback", "ja")
    assert "latest status in our own records" in reply_for("tracking_fallback", "en")


def test_payment_status_uses_the_gateway_amounts() -> None:
    ja, en = reply_for("payment", "ja"), reply_for("payment", "en")
    assert (
        "ご注文 ORD-4003のお支払い（クレジットカード）16,780円のうち、3,980円を返金済みです。" in ja
    )
    assert "Of your payment of ¥16,780 for order ORD-4003 (credit card), ¥3,980 has been" in en


def test_coupon_with_code_value_and_expiry_in_another_year() -> None:
    ja, en = reply_for("coupon", "ja"), reply_for("coupon", "en")
    assert "500円分のクーポン" in ja
    assert "クーポンコード: SORRY-ABCD234567（有効期限: 2026年3月1日(日)まで）" in ja
    assert "a ¥500 coupon" in en
    assert "Coupon code: SORRY-ABCD234567 (valid until Sun, Mar 1, 2026)." in en


def test_faq_answer_is_told_under_its_topic_never_its_title_and_a_miss_is_admitted_once() -> None:
    question, answer = FAQ["ja"]
    assert f"返品・交換・返金について、ご案内いたします。\n{answer}" in reply_for("faq", "ja")
    assert question not in reply_for("faq", "ja")
    assert f"About returns, exchanges and refunds:\n{FAQ['en'][1]}" in reply_for("faq", "en")
    assert FAQ["en"][0] not in reply_for("faq", "en")
    miss = reply_for("faq_none", "ja")
    assert "すぐにご案内できる情報が見つかりませんでした。" in miss
    assert miss.count("改めてご連絡いたします") == 1


COUPON_HELP = {
    "id": 7,
    "category": "coupons",
    "article": "coupon-not-working",
    "version": 3,
    "tags": ["coupon_not_applied"],
    "title": "My coupon does not work",
    "body": "Check its expiry date and minimum order amount. One coupon per order.",
}


def test_the_conditions_the_payment_agent_looked_up_are_told_beside_its_check() -> None:
    """No FAQ agent was routed: the payment agent looked the coupon's conditions up itself."""
    results = SHIPPED | on("payment", search_faq={"entries": [COUPON_HELP]})
    inquiry = "My coupon didn't apply when I ordered ORD-4002"

    reply = write_reply(brief("en", "check_payment_status", inquiry=inquiry, results=results))

    assert f"About coupons:\n{COUPON_HELP['body']}" in reply


def test_a_look_up_beside_a_check_that_found_nothing_admits_no_miss() -> None:
    results = SHIPPED | on("payment", search_faq={"entries": []})
    inquiry = "My coupon didn't apply when I ordered ORD-4002"

    reply = write_reply(brief("en", "check_payment_status", inquiry=inquiry, results=results))

    assert "About coupons" not in reply
    assert "could not find" not in reply.lower()


def test_pending_refund_is_under_review_never_done() -> None:
    ja, en = reply_for("pending_refund", "ja"), reply_for("pending_refund", "en")

    assert "ご注文 ORD-4003の返金（12,800円）のご依頼を承りました。" in ja
    assert "現在、担当スタッフが内容を確認しております。" in ja
    assert "返金できる金額はお支払いいただいた金額が上限" in ja
    assert "完了" not in ja
    assert "refund of ¥12,800 on order ORD-4003. A member of our staff is reviewing it" in en
    assert "can be at most the amount you paid" in en
    assert "refunded" not in en


def test_an_uncapped_pending_refund_says_nothing_about_a_cap() -> None:
    reply = write_reply(brief("ja", "process_refund", pending_actions=[refund(3000)]))
    assert "返金（3,000円）" in reply
    assert "上限" not in reply


def test_pending_cancellation_is_under_review() -> None:
    ja, en = reply_for("pending_cancel", "ja"), reply_for("pending_cancel", "en")
    assert "ご注文 ORD-4001のキャンセルのご依頼を承りました。現在、担当スタッフが内容を確認" in ja
    assert "完了" not in ja
    assert "request to cancel order ORD-4001. A member of our staff is reviewing it" in en


def test_executed_actions() -> None:
    refund_ja, refund_en = reply_for("refund_done", "ja"), reply_for("refund_done", "en")
    assert "ご注文 ORD-4003について、12,800円の返金手続きが完了いたしました。" in refund_ja
    assert "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。" in refund_ja
    assert "We have refunded ¥12,800 for order ORD-4003. The money goes back to your" in refund_en
    cancel_ja = reply_for("cancel_done", "ja")
    assert "ご注文 ORD-4001のキャンセルが完了いたしました。クレジットカードの" in cancel_ja
    assert "（与信）も解除いたしました" in cancel_ja
    assert "Order ORD-4001 has been cancelled. The hold on your card has been released" in (
        reply_for("cancel_done", "en")
    )


def test_a_declined_action_names_the_order_and_quotes_the_operators_reason_in_any_language() -> (
    None
):
    ja, en = reply_for("declined", "ja"), reply_for("declined", "en")
    assert (
        "誠に申し訳ございませんが、ご注文 ORD-4001の返金はお受けすることができませんでした。"
        "理由: 「The item was used」" in ja
    )
    assert (
        "unable to approve the refund for order ORD-4001. Reason: \u201cThe item was used.\u201d"
        in en
    )

    result = decided(
        "process_refund", "declined", "reject", reason="購入から期間が経過しているため"
    )
    reply = write_reply(brief("ja", "process_refund", action_results=[result]))
    assert "理由: 「購入から期間が経過しているため」" in reply


def test_refused_at_execution_explains_that_the_order_changed() -> None:
    ja, en = reply_for("refused_at_execution", "ja"), reply_for("refused_at_execution", "en")
    assert "ご注文 ORD-4005のキャンセルは、お手続きの時点でご注文の状況が変わっていたため" in ja
    assert "ご注文 ORD-4005はすでに発送済みのため、キャンセルを承ることができません。" in ja
    assert "the order had changed by the time we processed it. Order ORD-4005 has already" in en


def test_a_failed_action_promises_contact_once() -> None:
    ja = reply_for("failed", "ja")
    assert (
        "ご注文 ORD-4001の返金の処理中に問題が発生したため、お手続きを完了できませんでした。" in ja
    )
    assert ja.count("改めてご連絡いたします") == 1


@pytest.mark.parametrize("code", ["order_not_cancellable", "order_cancellable"])
def test_cancelling_an_already_cancelled_order_is_explained_in_japanese(code: str) -> None:
    by_reason = on("order", cancel_order=refused(code))
    by_facts = on("order", get_order_details=details("ORD-4005", "cancelled"))
    by_facts["order"]["data"]["cancel_order"] = refused(code, "no longer possible")

    for results in (by_reason, by_facts):
        reply = write_reply(brief("ja", "cancel_order", results=results))
        assert "ご注文 ORD-4005はすでにキャンセル済みとなっております" in reply
        assert "cancel" not in reply.lower()


REFUSALS = {key.removeprefix("refusal.") for key in CATALOGUES["ja"] if key.startswith("refusal.")}
REFUSAL_CODES = {*REFUSALS, *REFUSAL_ALIASES, "coupon_over_cap", "brand_new_rule"}


@pytest.mark.django_db  # a window refusal states the window of the shop's policy in force
@pytest.mark.parametrize("code", sorted({code.split(".")[0] for code in REFUSAL_CODES}))
def test_no_refusal_shows_its_english_reason_or_code_in_japanese(code: str) -> None:
    reason = "Refused by rule XYZ for ORD-4003 on customer C0001"
    results = on("order", cancel_order=refused(code, reason))

    reply = write_reply(brief("ja", "cancel_order", results=results))

    assert "Refused" not in reply
    assert "C0001" not in reply
    assert code not in reply
    assert reply.count("\n\n") == 2  # greeting, the explanation, closing


@pytest.mark.django_db
def test_a_return_window_refusal_states_the_window_of_the_policy_in_force() -> None:
    manager = User.objects.create_user("mgr")
    values = {**policy_values(policy_in_force()), "return_window_days": 30}
    policy_change(user=manager, values=values, reason="longer returns", based_on=0)
    results = on("order", return_items=refused("return_window_passed", "too late"))

    reply = write_reply(brief("en", "return_items", results=results))

    assert "within 30 days of" in reply


def test_an_unknown_refusal_gets_a_polite_generic_sentence() -> None:
    results = on("shipping", arrange_redelivery=refused("brand_new_rule", "Some English text."))
    ja = write_reply(brief("ja", "arrange_redelivery", results=results))
    en = write_reply(brief("en", "arrange_redelivery", results=results))
    assert "再配達のお手続きについては、現在の状況ではお手続きを承ることができませんでした。" in ja
    assert "We were unable to process the redelivery in the current situation." in en


def test_what_could_not_be_checked_is_said_honestly() -> None:
    ja, en = reply_for("not_checked", "ja"), reply_for("not_checked", "en")
    assert "申し訳ございませんが、現在配送状況を確認することができませんでした。" in ja
    assert "確認でき次第、改めてご連絡いたします。" in ja
    assert "発送済み" in ja  # what is known is still answered
    assert "we couldn't check the delivery status right now. We will follow up as soon as" in en

    both = reply_for("all_failed", "ja")
    assert "現在ご注文情報・配送状況を確認することができませんでした。" in both
    assert both.count("改めてご連絡いたします") == 1
    assert "your order details and the delivery status" in reply_for("all_failed", "en")


def test_an_unidentified_order_asks_for_its_number_once() -> None:
    ask = "ご注文番号（例: ORD-1234）をお知らせいただけますでしょうか。"
    assert reply_for("no_order", "ja").count(ask) == 1
    assert "Could you send us the order number (for example ORD-1234)?" in reply_for(
        "no_order", "en"
    )
    required = on("shipping", track_shipment=refused("order_number_required", "Which order?"))
    assert ask in write_reply(brief("ja", "track_shipment", results=required))
    known = on("order", get_order_details=details()) | on("shipping")
    assert ask not in write_reply(brief("ja", "track_shipment", results=known))


def test_a_request_for_a_person_is_handed_over() -> None:
    ja = reply_for("contact_human", "ja")
    assert "担当スタッフにお引き継ぎいたしました。" in ja
    assert "見つかりませんでした" not in ja
    assert "passed your inquiry to a member of our staff" in reply_for("contact_human", "en")


def test_an_unknown_language_is_answered_in_japanese() -> None:
    assert write_reply(brief("fr", "search_faq")).startswith("お問い合わせいただき")


def test_phrase_tables_cover_both_languages() -> None:
    assert CATALOGUES["ja"].keys() == CATALOGUES["en"].keys()


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: fmt.yen("ja", 12800), "12,800円"),
        (lambda: fmt.yen("en", 12800), "¥12,800"),
        (lambda: fmt.yen("ja", None), ""),
        (lambda: fmt.day("ja", "2025-12-03", fmt.day_of("2025-12-01")), "12月3日(水)"),
        (lambda: fmt.day("en", "2026-01-05", fmt.day_of("2025-12-01")), "Mon, Jan 5, 2026"),
        (lambda: fmt.day("ja", "not a date"), ""),
        (lambda: fmt.moment("ja", "2025-12-02T15:05:00+00:00"), "2025年12月3日(水) 0:05"),
        (lambda: fmt.window("ja", "14-16"), "14〜16時"),
        (lambda: fmt.window("en", "18-21"), "between 6pm and 9pm"),
        (lambda: fmt.window("en", "soon"), ""),
    ],
)  # fmt: skip
def test_formatting(call: Callable[[], str], expected: str) -> None:
    assert call() == expected


def test_a_sparse_brief_still_gives_a_clean_reply() -> None:
    order = {"number": None, "status": None, "lines": [{"name": None}], "payment": None}
    tools = {"get_order_details": {"order": order}, "search_orders": {"orders": [{}]}}
    shipping: dict[str, Any] = {
        "track_shipment": {"tracking": {"status": None, "events": [{"time": None}]}}
    }
    shipping["change_delivery_date"] = {"date_change": {"new_date": None}}
    shipping["arrange_redelivery"] = {"error": "invalid_arguments", "message": "bad"}
    coupon = {"apply_coupon": {"coupon": {"code": "SORRY-X", "value": None}}}
    results = on("order", **tools) | on("shipping", **shipping) | on("payment", **coupon)
    actions = [{"kind": None, "outcome": None}, {"kind": "process_refund", "outcome": "executed"}]
    pending = [{"kind": "process_refund", "params": None, "capped": True}]

    for lang in ("ja", "en"):
        given = brief(lang, "", results=results, pending_actions=pending, action_results=actions)
        reply = write_reply(given | {"today": None, "secondary_intents": None, "escalation": {}})
        assert "None" not in reply
        assert "{" not in reply
        assert "invalid" not in reply
        assert "に変更いたしました" not in reply  # no date change without a date


# --- A parcel's refusals by the parcel's state (issue 24) ----------------------------------


def parcel_refused(code: str, status: str) -> dict[str, str]:
    return refused(code, f"shipment 6100-0000-0042 is {status}; not for ORD-4004 now")


@pytest.mark.parametrize(
    ("tool", "code", "status", "ja_words", "en_words"),
    [
        (
            "change_delivery_date",
            "date_change_not_allowed",
            "out_for_delivery",
            ["本日すでに配達に出ているため、お届け日を変更できません", "再配達"],
            ["already out for delivery today", "can no longer be changed", "redelivery"],
        ),
        (
            "change_delivery_date",
            "date_change_not_allowed",
            "absent_returned",
            ["持ち戻られており", "再配達を手配できます", "7日以内"],
            ["taken back to the depot", "arrange a redelivery instead", "next 7 days"],
        ),
        (
            "change_delivery_date",
            "date_change_not_allowed",
            "delivered",
            ["すでにお届け済み"],
            ["already been delivered"],
        ),
        (
            "arrange_redelivery",
            "redelivery_not_allowed",
            "in_transit",
            ["まだ配送の途中", "お届け日の変更を承ります"],
            ["still on its way", "change its delivery date instead"],
        ),
        (
            "arrange_redelivery",
            "redelivery_not_allowed",
            "out_for_delivery",
            ["本日配達に出ている", "再配達をお申し付けください"],
            ["out for delivery today", "ask us for a redelivery"],
        ),
    ],
)
def test_a_parcels_refusal_says_its_real_state_why_and_what_instead(
    tool: str, code: str, status: str, ja_words: list[str], en_words: list[str]
) -> None:
    results = on("shipping", **{tool: parcel_refused(code, status)})

    ja = write_reply(brief("ja", tool, results=results))
    en = write_reply(brief("en", tool, results=results))

    assert all(words in ja for words in ja_words), ja
    assert all(words in en for words in en_words), en
    assert "ORD-4004" in ja
    assert "ORD-4004" in en


def test_a_parcel_at_the_depot_is_never_said_to_be_out_for_delivery() -> None:
    results = on(
        "shipping",
        change_delivery_date=parcel_refused("date_change_not_allowed", "absent_returned"),
    )

    assert "配達中" not in write_reply(brief("ja", "change_delivery_date", results=results))
    en = write_reply(brief("en", "change_delivery_date", results=results))
    assert "out for delivery" not in en


@pytest.mark.parametrize(
    ("code", "ja_words", "en_words"),
    [
        ("slot_out_of_range", "翌日から7日先まで", "from tomorrow up to 7 days ahead"),
        ("date_out_of_range", "当初のお届け予定日の14日後まで", "up to 14 days after the date"),
        ("date_unchanged", "別の日をご希望の場合", "If you meant another day"),
    ],
)
def test_a_date_refusal_states_the_rule_and_asks_for_a_date_within_it(
    code: str, ja_words: str, en_words: str
) -> None:
    results = on("shipping", change_delivery_date=refused(code, "outside"))

    assert ja_words in write_reply(brief("ja", "change_delivery_date", results=results))
    assert en_words in write_reply(brief("en", "change_delivery_date", results=results))
