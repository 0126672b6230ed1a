"""The console's words for the retail skills' actions: what one click on Approve does."""

from __future__ import annotations

from django.utils import translation

from operators.console.labels import ACTION_LABELS, approve_label

RETURN = {
    "kind": "return_items",
    "params": {"order_number": "ORD-5101", "items": [{"sku": "MUG-ARITA-AI", "quantity": 1}]}
    | {"amount": 2200},
}
EXCHANGE = {
    "kind": "exchange_items",
    "params": {"order_number": "ORD-5103", "item": "TSH-LOGO-M", "new_sku": "TSH-LOGO-L"},
}
CHANGE = {
    "kind": "modify_order_items",
    "params": {"order_number": "ORD-5104", "items": [{"sku": "CHP-WAKASA", "quantity": 0}]}
    | {"new_total": 4950},
}


def test_approve_says_exactly_what_each_retail_action_does() -> None:
    with translation.override("en"):
        assert approve_label([RETURN]) == (
            "Approve return of MUG-ARITA-AI × 1 with a refund of ¥2,200 on ORD-5101"
        )
        assert approve_label([EXCHANGE]) == (
            "Approve exchange of TSH-LOGO-M for TSH-LOGO-L on ORD-5103"
        )
        assert approve_label([CHANGE]) == (
            "Approve change of CHP-WAKASA × 0 on ORD-5104 (new total ¥4,950)"
        )


def test_each_retail_action_kind_has_a_label_in_japanese() -> None:
    with translation.override("ja"):
        labels = [str(ACTION_LABELS[str(a["kind"])]) for a in (RETURN, EXCHANGE, CHANGE)]
    assert labels == ["商品の返品と返金", "別のバリエーションへの交換", "注文商品の変更"]
