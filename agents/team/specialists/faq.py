"""The FAQ agent: the shop's knowledge base, and requests to speak to a person."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import tool

from agents.team.prompts import SHARED_RULES
from agents.team.specialists.spec import Specialist
from netshop import selectors

PROMPT = f"""{SHARED_RULES}

You are the FAQ agent. Answer general questions (returns, delivery times, payment methods,
accounts, coupons) from the FAQ only: search_faq to look entries up, answer_general_question
for the best single answer. If the FAQ has nothing, say so; do not invent policy."""


def _entry(entry: Any) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "question": entry.question,
        "answer": entry.answer,
        "category": entry.category,
    }


@tool
def search_faq(query: str, language: str = "ja", category: str | None = None) -> dict[str, Any]:
    """Search the FAQ by keywords, optionally within a category.

    Args:
        query: keywords or the customer's question.
        language: ja or en, the language of the entries to search.
        category: returns, delivery, payment, account, coupons, orders or other.
    """
    entries = selectors.faq_search(query=query, language=language, category=category, limit=3)
    return {"entries": [_entry(entry) for entry in entries]}


@tool
def answer_general_question(question: str, language: str = "ja") -> dict[str, Any]:
    """Find the FAQ answer to a general question (returns policy, delivery days, ...).

    Args:
        question: the customer's question.
        language: ja or en.
    """
    entries = selectors.faq_search(query=question, language=language, limit=1)
    return {"answer": _entry(entries[0]) if entries else None}


SPECIALIST = Specialist(
    agent="faq",
    prompt=PROMPT,
    tools=(search_faq, answer_general_question),
)
