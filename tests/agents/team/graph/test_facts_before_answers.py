"""Facts before answers, end to end (issue 13, item 3): on a shop of two customers, with the
offline model.

Given Hanako's and Emily's orders (``support_shop``), when they write about an order without
naming it, then the run acts only on the order they describe or asks which; a claim the
records contradict goes to a person; a policy the FAQ states is the one the shop applies; and,
over a corpus of varied inquiries in Japanese and English, no reply repeats a sentence, quotes
an FAQ title, or carries Japanese script into English (except product names the shop has only
in Japanese: none in this shop, and the test reads them from the catalogue, so a product added
without an English name may still be named as the shop knows it).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from django.utils import timezone

from agents.providers.offline.formatting import has_japanese
from agents.team.runs.outcome import RunOutcome
from netshop.knowledge.models import ArticleVersion
from netshop.models import Cancellation, Coupon, Product, Refund, Shipment
from tests.support.scenarios import Shopper, SupportShop

Ask = Callable[..., RunOutcome]

CORPUS: tuple[tuple[str, str], ...] = (
    ("hanako", "{pending}をキャンセルしたいです"),
    ("hanako", "注文をキャンセルしたい。"),
    ("hanako", "{in_transit}はいつ届きますか？"),
    ("hanako", "{in_transit}はいつ届きますか？送料はいくらですか？"),
    ("hanako", "荷物がまだ届きません"),
    ("hanako", "{delivered} 届いてないんですけど"),
    ("hanako", "{delivered}の商品が壊れていました。交換か返金をお願いします"),
    ("hanako", "届いた包丁が欠けていました。返金してください"),
    ("hanako", "扇風機が壊れて届きました"),
    ("hanako", "{absent_returned}の再配達を明日の午前中にお願いします"),
    ("hanako", "不在票が入っていました。再配達してほしいです"),
    ("hanako", "{in_transit}の配達日を来週の土曜日に変更してください"),
    ("hanako", "{in_transit}の配達日を3日うしろにずらしてください"),
    ("hanako", "カードで二重に請求されています"),
    ("hanako", "{delivered}が二重に請求されています"),
    ("hanako", "期限切れのクーポンを再発行してください"),
    ("hanako", "配達が遅れたのでクーポンをもらえますか"),
    ("hanako", "{cancelled}をキャンセルしてください"),
    ("hanako", "返品はできますか？"),
    ("hanako", "支払い方法は何がありますか"),
    ("hanako", "領収書をください {delivered}"),
    ("hanako", "パスワードを忘れました"),
    ("hanako", "{delivered}の支払い状況を教えて"),
    ("hanako", "注文した商品の内容を確認したい"),
    ("hanako", "担当者と話したいです"),
    ("hanako", "{in_transit} の荷物はどこ？あと {delivered} の返金もお願い"),
    ("emily", "Where is my parcel? It says out for delivery but nothing yet. Please cancel it."),
    ("emily", "I was charged twice for my order"),
    ("emily", "I see two charges on my card for {delivered}"),
    ("emily", "My package says delivered but I don't have it"),
    ("emily", "Where is my order {delivered}?"),
    ("emily", "The towel in my order arrived damaged"),
    ("emily", "My fan arrived broken, it was delivered yesterday. What should I do?"),
    ("emily", "My order {delivered} arrived broken. What can I do?"),
    ("emily", "I want to cancel {pending}. How do I cancel an order?"),
    ("emily", "Please cancel my order"),
    ("emily", "Has my refund been processed?"),
    ("emily", "What's the status of my order?"),
    ("emily", "How much is shipping and when will {pending} ship?"),
    ("emily", "My discount code has lapsed, could I have a fresh one?"),
    ("emily", "Can I return {delivered}? It arrived 12 days ago"),
    ("emily", "Which payment methods do you accept?"),
    ("emily", "I forgot my password"),
    ("emily", "I want my money back for {delivered}, the towel is torn"),
    ("emily", "Where's my stuff??"),
    ("emily", "Can you push {pending}'s delivery back two days?"),
    ("emily", "i need to talk to a human"),
    ("emily", "What did I order last time?"),
    ("emily", "My card payment failed at checkout"),
    ("emily", "Do you ship overseas?"),
    ("hanako", "ORD-9999の配送状況と支払い状況を教えて、返金もしてください"),
    ("emily", "What is the delivery and payment status of ORD-9999? Refund it too."),
    ("hanako", "{in_transit}の配達日を変更したいです"),
    ("emily", "It arrived broken and I was charged twice. Refund me."),
    ("emily", "My package was delivered yesterday but the mug inside is cracked"),
    ("emily", "Where is {delivered}? Also please refund {pending}"),
    ("hanako", "{in_transit}が壊れて届きました。返金してください"),
    ("emily", "{delivered} arrived broken, the lamp is cracked. Refund please."),
    ("hanako", "{in_transit_fullwidth}の荷物、今どのへんですか？"),
    ("hanako", "恐れ入りますが、{delivered}の決済状況をご確認いただけますでしょうか。"),
    ("hanako", "土鍋まだ？"),
    ("hanako", "{absent_returned} 明後日の夜に再配達お願いできますか"),
    ("hanako", "お届け日を来週の水曜日にしてほしいです {in_transit}"),
    ("hanako", "返金まだですか？{delivered}"),
    ("hanako", "注文番号{delivered_digits}の件で連絡しました"),
    ("hanako", "{pending} やっぱりいらないです"),
    ("hanako", "クーポンください"),
    ("hanako", "配送料は無料になりますか？それと{in_transit}はいつ届きますか"),
    ("emily", "hi, wheres my order {delivered}, its been ages"),
    ("emily", "Could you kindly confirm whether order {pending} can still be cancelled?"),
    ("emily", "my tumbler hasnt shipped yet?? {pending}"),
    ("emily", "I'd like a receipt for {delivered} please"),
    ("emily", "The package for {delivered} never came but it says delivered"),
    ("emily", "Can I get a discount coupon? My delivery was late."),
    ("emily", "Please change the delivery of {pending} to next Saturday instead"),
    ("emily", "Refund {delivered}. The towels are stained."),
    ("emily", "About {delivered}"),
    ("emily", "How many days does a parcel to Kagoshima need?"),
)
_SENTENCE = re.compile(r"[^。.!?！？\n]+[。.!?！？]?")


_FULLWIDTH = str.maketrans("ORD-0123456789", "ＯＲＤ－０１２３４５６７８９")


def written(text: str, shopper: Shopper) -> str:
    """A ``CORPUS`` message with the shopper's order numbers filled in: ``{delivered}`` as
    typed, ``{delivered_digits}`` without its prefix, ``{in_transit_fullwidth}`` in full-width."""
    numbers = shopper.numbers()
    numbers["delivered_digits"] = numbers["delivered"].removeprefix("ORD-")
    numbers["in_transit_fullwidth"] = numbers.get("in_transit", "").translate(_FULLWIDTH)
    return text.format(**numbers)


def reply_of(outcome: RunOutcome) -> str:
    return str(outcome.state.get("reply") or "")


def repeated_sentences(reply: str) -> list[str]:
    sentences = [s.strip() for s in _SENTENCE.findall(reply) if len(s.strip()) > 3]
    return sorted({s for s in sentences if sentences.count(s) > 1})


def japanese_in_english(reply: str, allowed: set[str]) -> bool:
    for name in allowed:
        reply = reply.replace(name, "")
    return has_japanese(reply)


def test_no_reply_repeats_a_sentence_quotes_an_faq_title_or_mixes_scripts(
    shop: SupportShop, ask: Ask
) -> None:
    titles = set(ArticleVersion.objects.values_list("title", flat=True))
    japanese_only = set(Product.objects.filter(name_en="").values_list("name", flat=True))
    problems: list[tuple[str, str, object]] = []

    for who, template in CORPUS:
        shopper = shop.shopper(who)
        text = written(template, shopper)
        outcome = ask(text, customer=shopper.customer)
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
    shop: SupportShop,
    ask: Ask,
) -> None:
    seeded = Cancellation.objects.filter(
        order__customer=shop.emily.customer
    ).count()  # her refunded cancellation
    outcome = ask(
        "Where is my parcel? It says out for delivery but nothing yet. Please cancel it.",
        customer=shop.emily.customer,
    )

    assert outcome.status == "awaiting_customer"
    assert outcome.pending_actions == []
    assert Cancellation.objects.filter(order__customer=shop.emily.customer).count() == seeded
    assert "Which order is this about?" in reply_of(outcome)


def test_a_broken_item_no_order_holds_is_asked_about_never_refunded(
    shop: SupportShop, ask: Ask
) -> None:
    seeded = Refund.objects.filter(
        payment__order__customer=shop.hanako.customer
    ).count()  # her refunded cancellation
    outcome = ask("扇風機が壊れて届きました")

    assert outcome.status == "awaiting_customer"
    assert outcome.pending_actions == []
    assert f"1. {shop.hanako.delivered.number}" in reply_of(outcome)
    assert Refund.objects.filter(payment__order__customer=shop.hanako.customer).count() == seeded


def test_a_damaged_item_the_customer_names_is_refunded_on_the_order_holding_it(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(
        "The towel in my order arrived damaged. I want my money back.", customer=shop.emily.customer
    )

    [action] = outcome.pending_actions
    assert action["params"]["order_number"] == shop.emily.delivered.number


def test_a_refund_asked_for_one_of_two_named_orders_is_proposed_for_that_one(
    shop: SupportShop, ask: Ask
) -> None:
    in_transit, delivered = shop.hanako.in_transit.number, shop.hanako.delivered.number
    outcome = ask(f"Where is {in_transit}? Also, please refund {delivered}.")

    [action] = outcome.pending_actions
    assert action["params"]["order_number"] == shop.hanako.delivered.number
    assert "Could you send us the order number" not in reply_of(outcome)


def test_a_damaged_item_on_an_order_still_on_its_way_goes_to_a_person_not_a_refund(
    shop: SupportShop,
    ask: Ask,
) -> None:
    outcome = ask(f"{shop.hanako.in_transit.number}が壊れて届きました。返金してください")

    assert outcome.status == "escalated"
    assert outcome.pending_actions == []
    assert outcome.state["escalation"]["detail"] == {
        "order_number": shop.hanako.in_transit.number,
        "claim": "damaged_not_delivered",
    }
    assert "まだお届け前となっておりますが" in reply_of(outcome)


def test_a_damaged_item_the_named_order_does_not_hold_goes_to_a_person(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"{shop.hanako.delivered.number}の扇風機が壊れていました。返金してください")

    assert outcome.pending_actions == []
    assert outcome.state["escalation"]["detail"]["claim"] == "item_not_in_order"
    assert not Refund.objects.filter(payment__order__number=shop.hanako.delivered.number).exists()


def test_a_refund_for_a_parcel_not_arrived_that_the_carrier_delivered_goes_to_a_person(
    shop: SupportShop,
    ask: Ask,
) -> None:
    outcome = ask(f"{shop.hanako.delivered.number}が届いていません。返金してください")

    assert outcome.status == "escalated"
    assert outcome.pending_actions == []
    assert outcome.state["escalation"]["detail"]["claim"] == "not_arrived"
    assert "配達済みとなっておりますが" in reply_of(outcome)


def test_a_double_charge_without_an_order_asks_which(shop: SupportShop, ask: Ask) -> None:
    outcome = ask("I was charged twice for my order", customer=shop.emily.customer)

    assert outcome.status == "awaiting_customer"
    reply = reply_of(outcome)
    assert shop.emily.delivered.number in reply
    assert shop.emily.pending.number in reply
    assert "is complete" not in reply


def test_a_double_charge_on_a_named_order_goes_to_a_person(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        f"I see two charges on my card for {shop.emily.delivered.number}",
        customer=shop.emily.customer,
    )

    assert outcome.status == "escalated"
    assert outcome.state["escalation"]["reason"] == "claim_contradicts_records"
    assert "you tell us you were charged twice" in reply_of(outcome)
    assert "is complete" not in reply_of(outcome)


def test_delivered_but_not_here_goes_to_a_person_for_the_delivered_order(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("My package says delivered but I don't have it", customer=shop.emily.customer)

    assert outcome.status == "escalated"
    assert outcome.state["escalation"]["detail"]["order_number"] == shop.emily.delivered.number
    assert "has not shipped yet" not in reply_of(outcome)


# --- The FAQ's policies, enforced ---------------------------------------------------------


def test_an_expired_coupon_is_not_reissued_even_when_a_fresh_cause_exists(
    shop: SupportShop, ask: Ask
) -> None:
    customer = shop.hanako.customer
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


def test_an_english_tracking_reply_names_the_depot_in_english(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(f"Where is my order {shop.emily.delivered.number}?", customer=shop.emily.customer)

    reply = reply_of(outcome)
    assert "Yamato Transport" in reply
    assert re.search(r"Last update: .+, [A-Z][a-z]+ (?:[A-Z][a-z]+ )?Depot\.", reply)
    assert not has_japanese(reply)


def test_a_date_change_without_a_date_asks_for_one(shop: SupportShop, ask: Ask) -> None:
    scheduled = Shipment.objects.get(order__number=shop.hanako.in_transit.number).scheduled_date

    outcome = ask(f"{shop.hanako.in_transit.number}の配達日を変更したいです")

    assert outcome.status == "awaiting_customer"
    assert "ご希望の日付をお知らせください" in reply_of(outcome)
    assert (
        Shipment.objects.get(order__number=shop.hanako.in_transit.number).scheduled_date
        == scheduled
    )


def test_a_relative_date_shift_counts_from_the_scheduled_date(shop: SupportShop, ask: Ask) -> None:
    scheduled = Shipment.objects.get(order__number=shop.hanako.in_transit.number).scheduled_date
    assert scheduled is not None
    moved = scheduled + dt.timedelta(days=3)

    outcome = ask(f"{shop.hanako.in_transit.number}の配達日を3日うしろにずらしてください")

    assert Shipment.objects.get(order__number=shop.hanako.in_transit.number).scheduled_date == moved
    expected = f"{moved.month}月{moved.day}日"
    assert f"{scheduled.month}月{scheduled.day}日" in reply_of(outcome)
    assert f"から{expected}" in reply_of(outcome)
