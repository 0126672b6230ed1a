"""The new delivery address, as the shop recorded it (the Shipping agent's tool result)."""

from __future__ import annotations

from typing import Any, Final

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing.reply import Reply, as_dict
from agents.support.vocabulary import Skill
from netshop.addresses import PREFECTURES

PREFECTURE_EN: Final = dict(PREFECTURES)


def address_change_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """The new delivery address, as the shop recorded it."""
    change = as_dict(as_dict(tools.get(Skill.CHANGE_SHIPPING_ADDRESS)).get("address_change"))
    if not change.get("postal_code"):
        return []
    prefecture = str(change.get("prefecture") or "")
    return [
        reply.say(
            "address_changed",
            order_ref=fmt.order_ref(reply.lang, change.get("order_number")),
            postal_code=change["postal_code"],
            prefecture=PREFECTURE_EN.get(prefecture, prefecture)
            if reply.lang == "en"
            else prefecture,
            address_line=change.get("address_line") or "",
        )
    ]
