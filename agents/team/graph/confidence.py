"""What the supervisor does with how sure its reading is: act, or ask the customer first.

A reading the classifier is unsure of is fine for a look-up (the reply shows what was found),
not for an action: a refund, a cancellation, a booking or an address change proposed on a
misreading reaches an operator's queue or the carrier. Below ``CONFIRM_BELOW`` such a
request is put back to the customer as a yes-or-say-more question before anything runs; a
"yes" confirms it (``agents.providers.offline.understanding.followup``) and the next turn
acts on it.
"""

from __future__ import annotations

from typing import Any, Final

from agents.contract.schemas import Classification
from agents.support.vocabulary import ACTION_SKILLS

CONFIRM_BELOW: Final = 0.4


def confirmation_question(classification: Classification) -> dict[str, Any] | None:
    """The question to ask before acting on an unsure reading of a request to act, or None."""
    if classification.intent not in ACTION_SKILLS:
        return None
    if classification.confidence >= CONFIRM_BELOW:
        return None
    return {
        "slot": "intent",
        "why": "unsure",
        "options": [{"value": classification.intent}],
        "about": classification.intent,
    }
