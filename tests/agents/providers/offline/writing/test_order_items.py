"""The reply's paragraphs for returns, exchanges and item changes, in Japanese and English.

Given a brief with the action a specialist prepared (or its outcome), when the offline writer
writes the reply, then it says the request is being reviewed (never done) or what was done,
naming the items as the customer knows them, in the customer's language.
"""

from __future__ import annotations

import copy
from typing import Any

from agents.providers.offline.writing import write_reply

MUG = {"sku": "MUG-ARITA-AI", "name": "有田焼 マグカップ 藍", "name_en": "Arita Porcelain Mug"}
TSHIRT = {"sku": "TSH-LOGO-M", "name": "NetShop オリジナルTシャツ M", "name_en": "T-Shirt, M"}
NEW_SIZE = {"new_name": "NetShop オリジナルTシャツ L", "new_name_en": "T-Shirt, L"}
CHOPSTICKS = {"sku": "CHP-WAKASA", "name": "若狭塗 箸", "name_en": "Lacquered Chopsticks"}

RETURN = {
    "kind": "return_items",
    "params": {
        "order_number": "ORD-7101",
        "items": [{"sku": "MUG-ARITA-AI", "quantity": 1}],
        "amount": 2200,
        "reason": "damaged item",
        "item_details": [MUG | {"quantity": 1, "unit_price": 2200, "amount": 2200}],
    },
}
EXCHANGE = {
    "kind": "exchange_items",
    "params": {
        "order_number": "ORD-7103",
        "item": "TSH-LOGO-M",
        "new_variant": "L",
        "new_sku": "TSH-LOGO-L",
        "reason": "customer request",
        "item_details": [TSHIRT | NEW_SIZE | {"quantity": 1}],
    },
}
CHANGE = {
    "kind": "modify_order_items",
    "params": {
        "order_number": "ORD-7104",
        "items": [{"sku": "CHP-WAKASA", "quantity": 0}],
        "new_total": 4950,
        "item_details": [CHOPSTICKS | {"from": 1, "to": 0, "unit_price": 1650}],
    },
}


def brief(lang: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"language": lang, "today": "2025-12-01", "inquiry": "…"}
    base |= {"intent": "return_items", "secondary_intents": [], "results": {}}
    base |= {"not_checked": [], "pending_actions": [], "action_results": [], "escalation": None}
    return base | copy.deepcopy(fields)


def executed(action: dict[str, Any], **detail: Any) -> dict[str, Any]:
    return {"action_id": "a1", "decision": "approve", "operator": "op1", "outcome": "executed"} | {
        "kind": action["kind"],
        "params": action["params"],
        **detail,
    }


def test_a_pending_return_names_the_item_and_its_refund_and_is_under_review() -> None:
    ja = write_reply(brief("ja", pending_actions=[RETURN]))
    en = write_reply(brief("en", pending_actions=[RETURN]))

    assert "ご注文 ORD-7101の「有田焼 マグカップ 藍」の返品のご依頼を承りました" in ja
    assert "（返金予定額 2,200円）。現在、担当スタッフが内容を確認しております。" in ja
    assert "完了" not in ja
    assert (
        "request to return Arita Porcelain Mug from order ORD-7101, with a refund of ¥2,200" in en
    )


def test_an_executed_return_reports_the_refund_and_asks_for_the_item_back() -> None:
    ja = write_reply(brief("ja", action_results=[executed(RETURN, refund_amount=2200)]))
    en = write_reply(brief("en", action_results=[executed(RETURN, refund_amount=2200)]))

    assert "「有田焼 マグカップ 藍」の返品を承り、2,200円の返金手続きが完了いたしました。" in ja
    assert "お手元の商品を当店までご返送ください。" in ja
    assert (
        "accepted the return of Arita Porcelain Mug from order ORD-7101 and refunded ¥2,200" in en
    )


def test_an_exchange_names_both_sizes_and_then_the_replacement_parcel() -> None:
    pending_en = write_reply(brief("en", pending_actions=[EXCHANGE]))
    done = executed(EXCHANGE, replacement_tracking_number="1234-5678-9012")
    done_ja = write_reply(brief("ja", action_results=[done]))

    assert "request to exchange T-Shirt, M from order ORD-7103 for T-Shirt, L" in pending_en
    assert "「NetShop オリジナルTシャツ L」への交換を承り、交換品を発送いたしました" in done_ja
    assert "（お問い合わせ番号 1234-5678-9012）" in done_ja


def test_an_item_change_gives_the_new_total_and_the_lowered_card_hold() -> None:
    pending_ja = write_reply(brief("ja", pending_actions=[CHANGE]))
    done = executed(CHANGE, new_total=4950, authorization_adjusted=True)
    done_en = write_reply(brief("en", action_results=[done]))

    assert "ご注文内容の変更（「若狭塗 箸」を取り消し）のご依頼を承りました" in pending_ja
    assert "（変更後の合計 4,950円）" in pending_ja
    assert "We have changed order ORD-7104 (Lacquered Chopsticks removed); the new total is" in (
        done_en
    )
    assert "The hold on your card has been lowered to the new total as well." in done_en
