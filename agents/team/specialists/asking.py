"""The two tools that end a specialist without acting: ask the customer, or refer to a person.

Both are read-only. A specialist that cannot tell which order (item, date) the customer
means must not pick one: a coupon, a redelivery or a refund on a guessed order is worse
than a question. And when what the customer says contradicts the shop's records, neither
the records nor the claim is simply believed: a person looks. The tool turn ends the
specialist's loop on either call (``tool_turns``); the supervisor's review reads the result
from the envelope (``agents.team.graph.questions``).
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.tools import tool
from pydantic import BaseModel, Field

from agents.contract.tools import ASK_CUSTOMER, QUESTION, REFER_TO_PERSON, REFERRAL

MAX_OPTIONS = 5

Slot = Literal["order", "item", "date", "time_window", "address", "other"]
Why = Literal["missing", "ambiguous", "contradiction"]
ReferralReason = Literal["claim_contradicts_records", "unsupported_request"]
# Which claim the records contradict, for the sentence the customer reads.
Claim = Literal["", "not_arrived", "charged_twice", "damaged_not_delivered", "item_not_in_order"]


class Option(BaseModel):
    """One answer the customer can pick."""

    value: str = Field(description="What the answer stands for, e.g. the order number ORD-1002")
    label: str = Field(default="", description="A few words the customer recognises it by")


@tool(ASK_CUSTOMER)
def ask_customer(
    slot: Slot, why: Why, options: list[Option] | None = None, about: str = ""
) -> dict[str, Any]:
    """Ask the customer one question and stop: use it instead of guessing.

    Call it when a fact your step needs is missing or ambiguous: which order (the customer
    names none and more than one of their orders fits), which item, which date or time
    window, the new delivery address. Never pick one of several candidates yourself, and
    make no change (no coupon, redelivery, date change, address change, refund or
    cancellation) before the customer has answered.
    The shop writes the question in the customer's language; the customer's reply starts
    the next turn of the conversation.

    Args:
        slot: what is asked for: order, item, date, time_window, address or other.
        why: missing (nothing to go on), ambiguous (several candidates) or contradiction.
        options: the candidates, at most five, e.g. the order numbers that fit, each with a
            short description (items, status); leave empty when there are none to offer.
        about: what the customer asked, in a few words, e.g. "parcel not arrived".
    """
    chosen = [option.model_dump() for option in (options or [])[:MAX_OPTIONS]]
    return {QUESTION: {"slot": slot, "why": why, "options": chosen, "about": about}}


@tool(REFER_TO_PERSON)
def refer_to_person(
    reason: ReferralReason, summary: str, order_number: str | None = None, claim: Claim = ""
) -> dict[str, Any]:
    """Hand the request to a member of staff and stop, making no change.

    Call it when the customer's claim contradicts the shop's records (they say the parcel
    has not arrived while the carrier shows it delivered: do not answer "delivered" and do
    not offer a coupon; they say they were charged twice while the gateway shows one
    charge), or when they ask for something no tool of yours can do (e.g. exchanging an
    item for another size or colour, sending an item back). The customer is told a person
    follows up, and why.

    Args:
        reason: claim_contradicts_records or unsupported_request.
        summary: one line for the member of staff: what was claimed, what the records show.
        order_number: the order concerned, e.g. ORD-1003, if one is.
        claim: for a contradiction, which claim: not_arrived, charged_twice,
            damaged_not_delivered (a damaged item on an order not delivered yet) or
            item_not_in_order (an item the order does not hold).
    """
    referral = {"reason": reason, "summary": summary.strip()[:300]}
    referral |= {"order_number": order_number} if order_number else {}
    return {REFERRAL: referral | ({"claim": claim} if claim else {})}


ASKING_TOOLS = (ask_customer, refer_to_person)
ENDING_TOOLS = frozenset({ASK_CUSTOMER, REFER_TO_PERSON})

ASKING_RULES = """\
- Never guess which order, item or date the customer means: when none is named and more
  than one fits, or a needed fact is missing, call ask_customer with the candidates and stop.
- When the customer's claim contradicts the records (e.g. "not arrived" but delivered), or
  they ask for what no tool of yours does (e.g. exchange, sending an item back), call
  refer_to_person with the reason: make no change and do not argue with the customer."""
