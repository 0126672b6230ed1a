"""The FAQ agent: the shop's help articles, and requests to speak to a person."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import tool

from agents.team.prompts import SHARED_RULES
from agents.team.specialists.spec import Specialist
from netshop.knowledge.retrieval import article_search

PROMPT = f"""{SHARED_RULES}

You are the FAQ agent. Answer general questions (returns, delivery times, payment methods,
accounts, coupons) from the shop's help articles only: search_faq to look articles up,
answer_general_question for the best single answer. If the help has nothing, say so; do not
invent policy."""


@tool
def search_faq(query: str, language: str = "ja", category: str | None = None) -> dict[str, Any]:
    """Search the shop's help articles for what the customer asks, optionally within a
    category. Articles are found by what they are about, not only by shared words.

    Args:
        query: the customer's question, or keywords.
        language: ja or en, the language of the articles to search.
        category: returns, delivery, payment, account, coupons, orders or other.
    """
    hits = article_search(query=query, language=language, category=category, limit=3)
    return {"entries": [hit.as_dict() for hit in hits]}


@tool
def answer_general_question(question: str, language: str = "ja") -> dict[str, Any]:
    """Find the help article that answers a general question (returns policy, delivery
    days, ...); each article found names its version.

    Args:
        question: the customer's question.
        language: ja or en.
    """
    hits = article_search(query=question, language=language, limit=1)
    return {"answer": hits[0].as_dict() if hits else None}


SPECIALIST = Specialist(
    agent="faq",
    prompt=PROMPT,
    tools=(search_faq, answer_general_question),
)
