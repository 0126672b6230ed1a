"""The offline model's specialist turns: which tool to call next, with which arguments.

One module per specialist (``order``, ``shipping``, ``payment``, ``faq``) and one per
intent with rules of its own (``order_items``, ``address_change``, ``refund_status``,
``receipt``); ``choosing`` finds the order a request is about, ``referrals`` hands a
contradicted claim to a person.

Each specialist gets the inquiry, its intent and the extracted entities in its ``<context>``
block, exactly as a real model would. The rules below choose like a careful agent: use the
order the customer names, otherwise look their orders up and take the one that fits what
they ask about, or ask the customer which when several fit equally (never a guess); hand to
a person when the customer's claim contradicts the records; act only with the facts at
hand; stop and summarise when done.
"""

from __future__ import annotations

import hashlib
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from agents.contract.blocks import block_json, block_text
from agents.providers.offline.transcript import last_human_text, model_turns, tool_results
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.turns.faq import faq_turn
from agents.providers.offline.turns.order import order_turn
from agents.providers.offline.turns.payment import payment_turn
from agents.providers.offline.turns.shipping import shipping_turn
from agents.support.vocabulary import Skill


def next_turn(messages: list[BaseMessage], tools: set[str]) -> AIMessage:
    prompt = last_human_text(messages)
    context = block_json(prompt, "context", {})
    inquiry = block_text(prompt, "inquiry")
    results = tool_results(messages)
    calls = _choose(tools, context, inquiry, results)
    if not calls:
        return AIMessage(_summary(results))
    seed = f"{inquiry}|{sorted(tools)}|{model_turns(messages)}"
    return AIMessage(
        "",
        tool_calls=[
            {"name": name, "args": args, "id": _call_id(seed, index)}
            for index, (name, args) in enumerate(calls)
        ],
    )


def _choose(
    tools: set[str], context: dict[str, Any], inquiry: str, results: dict[str, Any]
) -> list[Call]:
    if "search_orders" in tools:
        return order_turn(context, inquiry, results, tools)
    if "track_shipment" in tools:
        return shipping_turn(context, inquiry, results, tools)
    if Skill.PROCESS_REFUND in tools:
        return payment_turn(context, inquiry, results, tools)
    if "search_faq" in tools:
        return faq_turn(context, inquiry, results)
    return []


def _summary(results: dict[str, Any]) -> str:
    if not results:
        return "Nothing to look up: the request names no order I could identify."
    parts = []
    for tool, result in results.items():
        if "refused" in result:
            parts.append(f"{tool}: refused ({result['refused']})")
        elif "error" in result:
            parts.append(f"{tool}: failed ({result['error']})")
        else:
            parts.append(f"{tool}: done")
    return "; ".join(parts)


def _call_id(seed: str, index: int) -> str:
    return "call_" + hashlib.sha256(f"{seed}|{index}".encode()).hexdigest()[:24]
