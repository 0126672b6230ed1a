"""Facts before answers, end to end (issue 13, item 3): on the demo shop, with the offline model.

Given the demo customers' orders, when they write about an order without naming it, then the
run acts only on the order they describe or asks which; a claim the records contradict goes
to a person; a policy the FAQ states is the one the shop applies; and, over a corpus of
varied inquiries in Japanese and English, no reply repeats a sentence, quotes an FAQ title,
or carries Japanese script into English (except product names the shop has only in
Japanese: none in the demo, and the test reads them from the catalogue, so a product added
without an English name may still be named as the shop knows it).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from django.utils import timezone

from agents.providers.offline.formatting import has_japanese
from agents.team.runs.outcome import RunOutcome
from netshop.models import Cancellation, Coupon, Customer, FaqEntry, Product, Refund, Shipment

Ask = Callable[..., RunOutcome]

CORPUS: tuple[tuple[str, str], ...] = (
    ("C0001", "ORD-1001をキャンセルしたいです"),
    ("C0001", "注文をキャンセルしたい。"),
    ("C0001", "ORD-1002はいつ届きますか？"),
    ("C0001", "ORD-1002はいつ届きますか？送料はいくらですか？"),
    ("C0001", "荷物がまだ届きません"),
    ("C0001", "ORD-1003 届いてないんですけど"),
    ("C0001", "ORD-1003の商品が壊れていました。交換か返金をお願いします"),
    ("C0001", "届いた包丁が欠けていました。返金してください"),
    ("C0001", "扇風機が壊れて届きました"),
    ("C0001", "ORD-1004の再配達を明日の午前中にお願いします"),
    ("C0001", "不在票が入っていました。再配達してほしいです"),
    ("C0001", "ORD-1002の配達日を来週の土曜日に変更してください"),
    ("C0001", "ORD-1002の配達日を3日うしろにずらしてください"),
    ("C0001", "カードで二重に請求されています"),
    ("C0001", "ORD-1003が二重に請求されています"),
    ("C0001", "期限切れのクーポンを再発行してください"),
    ("C0001", "配達が遅れたのでクーポンをもらえますか"),
    ("C0001", "ORD-1005をキャンセルしてください"),
    ("C0001", "返品はできますか？"),
    ("C0001", "支払い方法は何がありますか"),
    ("C0001", "領収書をください ORD-1003"),
    ("C0001", "パスワードを忘れました"),
    ("C0001", "ORD-1003の支払い状況を教えて"),
    ("C0001", "注文した商品の内容を確認したい"),
    ("C0001", "担当者と話したいです"),
    ("C0001", "ORD-1002 の荷物はどこ？あと ORD-1003 の返金もお願い"),
    ("C0002", "Where is my parcel? It says out for delivery but nothing yet. Please cancel it."),
    ("C0002", "I was charged twice for my order"),
    ("C0002", "I see two charges on my card for ORD-2001"),
    ("C0002", "My package says delivered but I don't have it"),
    ("C0002", "Where is my order ORD-2001?"),
    ("C0002", "The towel in my order arrived damaged"),
    ("C0002", "My fan arrived broken, it was delivered yesterday. What should I do?"),
    ("C0002", "My order ORD-2001 arrived broken. What can I do?"),
    ("C0002", "I want to cancel ORD-2002. How do I cancel an order?"),
    ("C0002", "Please cancel my order"),
    ("C0002", "Has my refund been processed?"),
    ("C0002", "What's the status of my order?"),
    ("C0002", "How much is shipping and when will ORD-2002 ship?"),
    ("C0002", "My coupon expired, can you send me a new one?"),
    ("C0002", "Can I return ORD-2001? It arrived 12 days ago"),
    ("C0002", "Which payment methods do you accept?"),
    ("C0002", "I forgot my password"),
    ("C0002", "I want my money back for ORD-2001, the towel is torn"),
    ("C0002", "Where's my stuff??"),
    ("C0002", "Can you push ORD-2002's delivery back two days?"),
    ("C0002", "i need to talk to a human"),
    ("C0002", "What did I order last time?"),
    ("C0002", "My card payment failed at checkout"),
    ("C0002", "Do you ship overseas?"),
    ("C0001", "ORD-9999の配送状況と支払い状況を教えて、返金もしてください"),
    ("C0002", "What is the delivery and payment status of ORD-9999? Refund it too."),
    ("C0001", "ORD-1002の配達日を変更したいです"),
    ("C0002", "It arrived broken and I was charged twice. Refund me."),
    ("C0002", "My package was delivered yesterday but the mug inside is cracked"),
    ("C0002", "Where is ORD-2001? Also please refund ORD-2002"),
    ("C0001", "ORD-1002が壊れて届きました。返金してください"),
    ("C0002", "ORD-2001 arrived broken, the lamp is cracked. Refund please."),
    ("C0001", "ＯＲＤ－１００２の荷物、今どのへんですか？"),
    ("C0001", "恐れ入りますが、ORD-1003の決済状況をご確認いただけますでしょうか。"),
    ("C0001", "土鍋まだ？"),
    ("C0001", "ORD-1004 明後日の夜に再配達お願いできますか"),
    ("C0001", "お届け日を来週の水曜日にしてほしいです ORD-1002"),
    ("C0001", "返金まだですか？ORD-1003"),
    ("C0001", "注文番号1003の件で連絡しました"),
    ("C0001", "ORD-1001 やっぱりいらないです"),
    ("C0001", "クーポンください"),
    ("C0001", "配送料は無料になりますか？それとORD-1002はいつ届きますか"),
    ("C0002", "hi, wheres my order ORD-2001, its been ages"),
    ("C0002", "Could you kindly confirm whether order ORD-2002 can still be cancelled?"),
    ("C0002", "my tumbler hasnt shipped yet?? ORD-2002"),
    ("C0002", "I'd like a receipt for ORD-2001 please"),
    ("C0002", "The package for ORD-2001 never came but it says delivered"),
    ("C0002", "Can I get a discount coupon? My delivery was late."),
    ("C0002", "Please change the delivery of ORD-2002 to next Saturday instead"),
    ("C0002", "Refund ORD-2001. The towels are stained."),
    ("C0002", "About ORD-2001"),
    ("C0002", "How long does delivery to Okinawa take?"),
)
_SENTENCE = re.compile(r"[^。.!?！？\n]+[。.!?！？]?")


def reply_of(outcome: RunOutcome) -> str:
    return str(outcome.state.get("reply") or "")


def repeated_sentences(reply: str) -> list[str]:
    sentences = [s.strip() for s in _SENTENCE.findall(reply) if len(s.strip()) > 3]
    return sorted({s for s in sentences if sentences.count(s) > 1})


def japanese_in_english(reply: str, allowed: set[str]) -> bool:
    for name in allowed:
        reply = reply.replace(name, "")
    return has_japanese(reply)


def test_no_reply_repeats_a_sentence_quotes_an_faq_title_or_mixes_scripts(ask: Ask) -> None:
    titles = set(FaqEntry.objects.values_list("question", flat=True))
    japanese_only = set(Product.objects.filter(name_en="").values_list("name", flat=True))
    problems: list[tuple[str, str, object]] = []

    for customer, text in CORPUS:
        outcome = ask(text, customer=customer)
        reply = reply_of(outcome)
        if not reply:
            problems.append((text, "no reply", outcome.status))
        if repeated := repeated_sentences(reply):
            problems.append((text, "repeated", repeated))
        if quoted := [title for title in titles if title in reply]:
            problems.append((text, "FAQ title quoted", quoted))
        if outcome.state.get("language") == "en" and japanese_in_english(reply, japanese_only):
            problems.append((text, "Japanese in English", reply))

    assert problems == []


# --- The order the customer meant -----------------------------------------------------------


def test_a_cancellation_is_never_proposed_for_an_order_other_than_the_one_described(
    ask: Ask,
) -> None:
    seeded = Cancellation.objects.filter(order__customer__code="C0002").count()  # ORD-2012
    outcome = ask(
        "Where is my parcel? It says out for delivery but nothing yet. Please cancel it.",
        customer="C0002",
    )

    assert outcome.status == "awaiting_customer"
    assert outcome.pending_actions == []
    assert Cancellation.objects.filter(order__customer__code="C0002").count() == seeded
    assert "Which order is this about?" in reply_of(outcome)


def test_a_broken_item_no_order_holds_is_asked_about_never_refunded(ask: Ask) -> None:
    seeded = Refund.objects.filter(payment__order__customer__code="C0001").count()  # ORD-1012
    outcome = ask("扇風機が壊れて届きました")

    assert outcome.status == "awaiting_customer"
    assert outcome.pending_actions == []
    assert "1. ORD-1003" in reply_of(outcome)
    assert Refund.objects.filter(payment__order__customer__code="C0001").count() == seeded


def test_a_damaged_item_the_customer_names_is_refunded_on_the_order_holding_it(ask: Ask) -> None:
    outcome = ask("The towel in my order arrived damaged. I want my money back.", customer="C0002")

    [action] = outcome.pending_actions
    assert action["params"]["order_number"] == "ORD-2001"


def test_a_refund_asked_for_one_of_two_named_orders_is_proposed_for_that_one(ask: Ask) -> None:
    outcome = ask("Where is ORD-1002? Also, please refund ORD-1003.")

    [action] = outcome.pending_actions
    assert action["params"]["order_number"] == "ORD-1003"
    assert "Could you send us the order number" not in reply_of(outcome)


def test_a_damaged_item_on_an_order_still_on_its_way_goes_to_a_person_not_a_refund(
    ask: Ask,
) -> None:
    outcome = ask("ORD-1002が壊れて届きました。返金してください")

    assert outcome.status == "escalated"
    assert outcome.pending_actions == []
    assert outcome.state["escalation"]["detail"] == {
        "order_number": "ORD-1002",
        "claim": "damaged_not_delivered",
    }
    assert "まだお届け前となっておりますが" in reply_of(outcome)


def test_a_damaged_item_the_named_order_does_not_hold_goes_to_a_person(ask: Ask) -> None:
    outcome = ask("ORD-1003の扇風機が壊れていました。返金してください")

    assert outcome.pending_actions == []
    assert outcome.state["escalation"]["detail"]["claim"] == "item_not_in_order"
    assert not Refund.objects.filter(payment__order__number="ORD-1003").exists()


def test_a_refund_for_a_parcel_not_arrived_that_the_carrier_delivered_goes_to_a_person(
    ask: Ask,
) -> None:
    outcome = ask("ORD-1003が届いていません。返金してください")

    assert outcome.status == "escalated"
    assert outcome.pending_actions == []
    assert outcome.state["escalation"]["detail"]["claim"] == "not_arrived"
    assert "配達済みとなっておりますが" in reply_of(outcome)


def test_a_double_charge_without_an_order_asks_which(ask: Ask) -> None:
    outcome = ask("I was charged twice for my order", customer="C0002")

    assert outcome.status == "awaiting_customer"
    reply = reply_of(outcome)
    assert "ORD-2001" in reply
    assert "ORD-2002" in reply
    assert "is complete" not in reply


def test_a_double_charge_on_a_named_order_goes_to_a_person(ask: Ask) -> None:
    outcome = ask("I see two charges on my card for ORD-2001", customer="C0002")

    assert outcome.status == "escalated"
    assert outcome.state["escalation"]["reason"] == "claim_contradicts_records"
    assert "you tell us you were charged twice" in reply_of(outcome)
    assert "is complete" not in reply_of(outcome)


def test_delivered_but_not_here_goes_to_a_person_for_the_delivered_order(ask: Ask) -> None:
    outcome = ask("My package says delivered but I don't have it", customer="C0002")

    assert outcome.status == "escalated"
    assert outcome.state["escalation"]["detail"]["order_number"] == "ORD-2001"
    assert "has not shipped yet" not in reply_of(outcome)


# --- The FAQ's policies, enforced ---------------------------------------------------------


def test_an_expired_coupon_is_not_reissued_even_when_a_fresh_cause_exists(ask: Ask) -> None:
    customer = Customer.objects.get(code="C0001")
    issued = timezone.now() - dt.timedelta(days=100)
    Coupon.objects.filter(customer=customer).delete()
    Coupon.objects.create(
        code="SORRY-EXPIRED02",
        customer=customer,
        value=500,
        operation_id="test-expired-c0001",
        expires_at=issued + dt.timedelta(days=90),
        created_at=issued,
    )

    outcome = ask("クーポンの期限が切れてしまいました。新しいクーポンを発行してもらえますか")

    assert list(Coupon.objects.filter(customer=customer).values_list("code", flat=True)) == [
        "SORRY-EXPIRED02"
    ]
    refused = outcome.state["envelopes"]["payment"]["data"]["apply_coupon"]["refused"]
    assert refused == "coupon_expired_not_reissued"
    assert "有効期限の切れたクーポンの再発行は承っておりません" in reply_of(outcome)


# --- Facts as read ------------------------------------------------------------------------


def test_an_english_tracking_reply_names_the_depot_in_english(ask: Ask) -> None:
    outcome = ask("Where is my order ORD-2001?", customer="C0002")

    reply = reply_of(outcome)
    assert "Yamato Transport" in reply
    assert re.search(r"Last update: .+, [A-Z][a-z]+ (?:[A-Z][a-z]+ )?Depot\.", reply)
    assert not has_japanese(reply)


def test_a_date_change_without_a_date_asks_for_one(ask: Ask) -> None:
    scheduled = Shipment.objects.get(order__number="ORD-1002").scheduled_date

    outcome = ask("ORD-1002の配達日を変更したいです")

    assert outcome.status == "awaiting_customer"
    assert "ご希望の日付をお知らせください" in reply_of(outcome)
    assert Shipment.objects.get(order__number="ORD-1002").scheduled_date == scheduled


def test_a_relative_date_shift_counts_from_the_scheduled_date(ask: Ask) -> None:
    scheduled = Shipment.objects.get(order__number="ORD-1002").scheduled_date
    assert scheduled is not None
    moved = scheduled + dt.timedelta(days=3)

    outcome = ask("ORD-1002の配達日を3日うしろにずらしてください")

    assert Shipment.objects.get(order__number="ORD-1002").scheduled_date == moved
    expected = f"{moved.month}月{moved.day}日"
    assert f"{scheduled.month}月{scheduled.day}日" in reply_of(outcome)
    assert f"から{expected}" in reply_of(outcome)
