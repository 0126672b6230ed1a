"""Whether the words an operator sends the customer are in the customer's language.

Pure, so the rule is table-tested: the preview flags a mismatch and the decision service
refuses it until the operator confirms. A text of order numbers and digits alone says
nothing of its language and is never flagged.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.support.text import detect_language, language_evident
from agents.support.vocabulary import OperatorDecision


@dataclass(frozen=True)
class LanguageCheck:
    """The customer's language, the language of the operator's text ("" when it has none)."""

    customer: str
    text: str = ""

    @property
    def mismatch(self) -> bool:
        return bool(self.text) and self.text != self.customer


def language_check(text: str, *, customer_language: str) -> LanguageCheck:
    customer = customer_language or "ja"
    if not text.strip() or not language_evident(text):
        return LanguageCheck(customer=customer)
    return LanguageCheck(customer=customer, text=detect_language(text))


def operator_words(*, decision: str, reason: str, reply: str) -> str:
    """The text of a decision that reaches the customer in the operator's own words: a
    rejection's reason, an edit's rewritten reply. (A take-over's reply is the operator's
    whole answer, written for the customer, and not checked.)"""
    if decision == OperatorDecision.REJECT:
        return reason
    if decision == OperatorDecision.EDIT:
        return reply
    return ""
