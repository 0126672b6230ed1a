"""Returns, exchanges and item changes in the customer's reply: waiting for a person, or done.

Called by ``actions`` for the actions on an order's items. Items are named as the
customer knows them (the product's name in their language), amounts in their format.
"""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing.reply import Reply, as_dict, as_list
from agents.support import catalogue
from agents.support.vocabulary import Skill

ITEM_KINDS = frozenset({Skill.RETURN_ITEMS, Skill.EXCHANGE_ITEMS, Skill.MODIFY_ORDER_ITEMS})


def pending(reply: Reply, action: dict[str, Any], order_ref: str) -> str:
    """The request, as received and being reviewed (never as done)."""
    params = as_dict(action.get("params"))
    kind = action.get("kind")
    if kind == Skill.RETURN_ITEMS:
        amount = fmt.yen(reply.lang, params.get("amount"))
        return reply.say(
            "pending_return", order_ref=order_ref, items=_items(reply, params), amount=amount
        )
    if kind == Skill.EXCHANGE_ITEMS:
        return reply.say(
            "pending_exchange",
            order_ref=order_ref,
            item=_items(reply, params),
            variant=_variant(reply, params),
        )
    return reply.say(
        "pending_item_change",
        order_ref=order_ref,
        changes=_changes(reply, params),
        total=fmt.yen(reply.lang, params.get("new_total")),
    )


def executed(reply: Reply, result: dict[str, Any], order_ref: str) -> str:
    """What was done, as the action's result states it."""
    params = as_dict(result.get("params"))
    kind = result.get("kind")
    if kind == Skill.RETURN_ITEMS:
        amount = fmt.yen(reply.lang, result.get("refund_amount") or params.get("amount"))
        done = reply.say(
            "return_done", order_ref=order_ref, items=_items(reply, params), amount=amount
        )
        return reply.join([done, reply.say("send_back")])
    if kind == Skill.EXCHANGE_ITEMS:
        done = reply.say(
            "exchange_done",
            order_ref=order_ref,
            item=_items(reply, params),
            variant=_variant(reply, params),
            tracking=result.get("replacement_tracking_number") or "",
        )
        return reply.join([done, reply.say("send_back")])
    total = fmt.yen(reply.lang, result.get("new_total") or params.get("new_total"))
    sentences = [
        reply.say(
            "item_change_done", order_ref=order_ref, changes=_changes(reply, params), total=total
        )
    ]
    if result.get("authorization_adjusted"):
        sentences.append(reply.say("authorization_lowered"))
    return reply.join(sentences)


def _name(reply: Reply, item: dict[str, Any]) -> str:
    english = reply.lang == "en" and item.get("name_en")
    return str(english or item.get("name") or item.get("sku") or "")


def _items(reply: Reply, params: dict[str, Any]) -> str:
    details = [as_dict(item) for item in as_list(params.get("item_details"))]
    names = [_quoted(reply, _name(reply, item), item.get("quantity")) for item in details]
    return fmt.join(reply.lang, [name for name in names if name])


def _quoted(reply: Reply, name: str, quantity: object) -> str:
    if not name:
        return ""
    if isinstance(quantity, int) and quantity > 1:
        return catalogue.say(reply.lang, "reply.items_of", name=name, quantity=quantity)
    return catalogue.say(reply.lang, "reply.item", name=name)


def _variant(reply: Reply, params: dict[str, Any]) -> str:
    details = [as_dict(item) for item in as_list(params.get("item_details"))]
    new = details[0] if details else {}
    english = reply.lang == "en" and new.get("new_name_en")
    return _quoted(reply, str(english or new.get("new_name") or params.get("new_variant")), 1)


def _changes(reply: Reply, params: dict[str, Any]) -> str:
    parts = []
    for item in (as_dict(i) for i in as_list(params.get("item_details"))):
        name = _quoted(reply, _name(reply, item), 1)
        to = item.get("to", 0)
        if to:
            parts.append(reply.say("change_lowered", name=name, quantity=to))
        else:
            parts.append(reply.say("change_removed", name=name))
    return catalogue.say(reply.lang, "list.comma").join(parts)
