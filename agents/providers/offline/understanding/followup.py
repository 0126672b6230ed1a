"""The offline supervisor's reading of a later turn: the new message with what came before.

A message with no request of its own continues the earlier one: an answer to the shop's
question ("ORD-1004", "2つ目の方です", "the second one", "yes", the new address it asked
for, "It's ORD-1004, the towels" when it asked which order) keeps the earlier request's
classification with the chosen order as its order entity; a correction ("no, I meant
ORD-1003", 「いえ、ORD-1003の方です」) or an addition ("also ORD-1004", 「あと、ORD-1004
も」) takes the earlier intent with its own new entities. A message with a request of its
own is classified on its own (an addition keeps the earlier order when it names none). Pure.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from agents.contract.schemas import CONFIRMED, Classification, Entities
from agents.providers.offline.understanding import classify_text
from agents.providers.offline.understanding.address import find_address
from agents.providers.offline.understanding.answers import asks_nothing_else, chosen_option
from agents.providers.offline.understanding.classifier import has_own_intent
from agents.support.text import language_evident, normalize

_ADDITION: Final = re.compile(
    r"^\s*(?:also|and also|and|plus|oh,? and|one more thing|additionally|as well"
    r"|あと|それと|それから|また|ついでに|追加で|もう一つ|もうひとつ)(?![a-z])",
    re.IGNORECASE,
)


def is_addition(text: str) -> bool:
    return bool(_ADDITION.search(normalize(text)))


def classify_turn(
    text: str,
    *,
    question: Mapping[str, Any] | None = None,
    conversation: Sequence[Mapping[str, Any]] = (),
    today: dt.date | None = None,
) -> Classification:
    """The classification of ``text`` given the open ``question`` and the conversation."""
    fresh = classify_text(text, today=today)
    earlier = earlier_request(question, conversation)
    if earlier is None:
        return fresh
    base = classify_text(earlier, today=today)
    language = fresh.language if language_evident(text) else base.language
    if _gives_the_address(text, question):  # read as the answer, whatever else it says
        return _inherit(base, fresh, language=language, orders=base.entities.order_numbers)
    if question and question.get("slot") == "request":  # "what do you need?": read as said
        return fresh
    own = has_own_intent(text) and not _gives_the_detail(text, question)
    if question and question.get("slot") == "intent":
        return _confirmed(base, fresh, text, question, language=language, own=own)
    if question and not own:
        choice = chosen_option(text, question.get("options") or [])
        if choice is not None:
            return _inherit(base, fresh, language=language, orders=[choice])
    if own:
        if is_addition(text) and not fresh.entities.order_numbers:
            entities = fresh.entities.model_copy(
                update={"order_numbers": base.entities.order_numbers}
            )
            return fresh.model_copy(update={"entities": entities})
        return fresh
    if _names_something(fresh.entities):
        return _inherit(base, fresh, language=language, orders=fresh.entities.order_numbers)
    if question:  # not an answer the shop can read: the earlier request, asked again
        return base.model_copy(update={"language": language})
    return fresh


def _confirmed(
    base: Classification,
    fresh: Classification,
    text: str,
    question: Mapping[str, Any],
    *,
    language: str,
    own: bool,
) -> Classification:
    """The answer to "would you like us to go ahead with ...?": a yes confirms the earlier
    reading (now certain, so it is acted on); anything else is read as said."""
    yes = not own and chosen_option(text, question.get("options") or []) is not None
    if not yes:
        return fresh
    entities = fresh.entities.model_dump(exclude_defaults=True)
    return base.model_copy(
        update={
            "confidence": CONFIRMED,
            "language": language,
            "entities": base.entities.model_copy(update=entities),
            "injection_suspected": base.injection_suspected or fresh.injection_suspected,
            "complaint": fresh.complaint,  # the flag is about this message's words
        }
    )


def earlier_request(
    question: Mapping[str, Any] | None, conversation: Sequence[Mapping[str, Any]]
) -> str | None:
    """The request a new message may continue: the one the open question was about, else
    the customer's latest message that asked for something."""
    if question and question.get("request"):
        return str(question["request"])
    for message in reversed(conversation):
        text = str(message.get("text") or "")
        if message.get("from") == "customer" and has_own_intent(text):
            return text
    return None


def _gives_the_address(text: str, question: Mapping[str, Any] | None) -> bool:
    """The shop asked for the new delivery address and the message gives one: it answers the
    earlier request about the earlier order, even though an address reads like a request."""
    found = find_address(text) if question and question.get("slot") == "address" else None
    return found is not None and found.complete


def _gives_the_detail(text: str, question: Mapping[str, Any] | None) -> bool:
    """The shop asked for a detail of the request (which order, which item, when) and the
    message gives it, asking nothing else: it continues the request, however much a named
    order alone reads like a parcel to track. A yes to "shall we go ahead?" is read by
    ``_confirmed``; a reply to "what do you need?" is a request by definition."""
    if question is None or question.get("slot") in ("intent", "request"):
        return False
    return asks_nothing_else(text)


def _names_something(entities: Entities) -> bool:
    return bool(entities.order_numbers or entities.tracking_numbers or entities.dates)


def _inherit(
    base: Classification, fresh: Classification, *, language: str, orders: list[str]
) -> Classification:
    """The earlier request's classification, with the new message's entities over its own."""
    new = fresh.entities.model_dump(exclude_defaults=True)
    entities = base.entities.model_copy(update={**new, "order_numbers": orders or []})
    if orders:
        entities.tracking_numbers = list(fresh.entities.tracking_numbers)
    return base.model_copy(
        update={
            "entities": entities,
            "language": language,
            "injection_suspected": base.injection_suspected or fresh.injection_suspected,
            "complaint": fresh.complaint,  # the flag is about this message's words
        }
    )
