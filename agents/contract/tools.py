"""The names of the tools every specialist has besides its own: the contract between the AI
team, which binds them, and a provider, which calls them by name."""

from __future__ import annotations

from typing import Final

ASK_CUSTOMER: Final = "ask_customer"
REFER_TO_PERSON: Final = "refer_to_person"
# The key of each tool's result in the envelope's data.
QUESTION: Final = "question"
REFERRAL: Final = "referral"
