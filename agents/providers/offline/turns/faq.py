"""The FAQ agent's turn: one search of the FAQ (or the general question), then done."""

from __future__ import annotations

from typing import Any

from agents.providers.offline.turns.calls import Call


def faq_turn(context: dict[str, Any], inquiry: str, results: dict[str, Any]) -> list[Call]:
    intent = context.get("intent", "search_faq")
    if results or intent == "contact_human":
        return []
    language = context.get("language", "ja")
    if intent == "answer_general_question":
        return [("answer_general_question", {"question": inquiry, "language": language})]
    return [("search_faq", {"query": inquiry, "language": language})]
