"""What the supervisor does with how sure its reading is: act, ask the customer first, or leave
it to a person.

A reading the classifier is unsure of is fine for a look-up (the reply shows what was found),
not for an action: a refund, a cancellation, a booking or an address change proposed on a
misreading reaches an operator's queue or the carrier. Below ``CONFIRM_BELOW`` such a
request is put back to the customer as a yes-or-say-more question before anything runs; a
"yes" confirms it (``agents.providers.offline.understanding.followup``) and the next turn
acts on it.

A reading with no request in it at all ("I have a problem", "nothing ever works") leaves
only the card's default look-up, and an order's details are an answer to nobody's question:
below ``UNCLEAR_BELOW`` the customer is asked what they need instead (``slot`` "request").
The rules read only the ``Classification``, so a real model's reading gets them too.
"""

from __future__ import annotations

from typing import Any, Final

from agents.contract.cards import DEFAULT_INTENT
from agents.contract.schemas import Classification
from agents.support.vocabulary import ACTION_SKILLS, GATED_SKILLS

CONFIRM_BELOW: Final = 0.4
# A request held for a person's approval anyway, on an order the customer named, is put back
# to them only when the reading is much less sure: "can I cancel ORD-1234?" is not answered
# with "shall we go ahead?" (issue 24, class 5).
CONFIRM_NAMED_GATED_BELOW: Final = 0.2
# A look-up read this unsurely is the fallback of a reading that found no request (the
# classifier's own bar for a real reading, ``ALSO_AT``).
UNCLEAR_BELOW: Final = 0.2
# The look-ups an agent falls back on when nothing it can do was read (the cards' defaults).
FALLBACK_LOOKUPS: Final = frozenset(DEFAULT_INTENT.values())


def question_before_planning(
    classification: Classification, *, later_turn: bool = False
) -> dict[str, Any] | None:
    """The question to put to the customer before the team works on ``classification``,
    or None when it can go ahead. A message flagged as instructing the system is never
    asked about: it goes to a person (``escalation_policy.instructions_to_system``). A later
    message of a conversation with no request of its own ("I can send photos too") goes on
    with what the conversation is about, not with "what do you need?"."""
    if classification.injection_suspected:
        return None
    unclear = None if later_turn else clarification_question(classification)
    return unclear or confirmation_question(classification)


def confirmation_question(classification: Classification) -> dict[str, Any] | None:
    """The question to ask before acting on an unsure reading of a request to act, or None."""
    if classification.intent not in ACTION_SKILLS:
        return None
    named = len(classification.entities.order_numbers) == 1
    gated = classification.intent in GATED_SKILLS
    below = CONFIRM_NAMED_GATED_BELOW if named and gated else CONFIRM_BELOW
    if classification.confidence >= below:
        return None
    return {
        "slot": "intent",
        "why": "unsure",
        "options": [{"value": classification.intent}],
        "about": classification.intent,
    }


def clarification_question(classification: Classification) -> dict[str, Any] | None:
    """ "What can we help with?" when the reading found no request: only the fallback
    look-up is left, and it is a guess."""
    if classification.intent not in FALLBACK_LOOKUPS or classification.secondary_intents:
        return None
    if classification.entities.order_numbers or classification.entities.tracking_numbers:
        return None  # the order they named is looked up: its own rules may read the rest
    if classification.confidence >= UNCLEAR_BELOW:
        return None
    return {"slot": "request", "why": "unclear", "options": [], "about": ""}
