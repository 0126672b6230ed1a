"""The FAQ's part of a reply: the entry that fits the problem, told, not quoted, and trimmed.

Three failures this prevents: a broken item answered with the "marked delivered but not
received" article (an article tagged with one problem is used only for that problem); the
article's title quoted back ("「注文をキャンセルしたい。」について..."; the topic is named in the
shop's own words instead); and FAQ text that asks for what the customer already gave
("send support your order number") or to contact the support the customer is talking to.
What is left of the answer is shown only if it still says something. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents.providers.offline.understanding.faq import (
    GIVEN_ORDER,
    TO_SUPPORT,
    entry_problem,
    explains_action,
    problems_in,
)
from agents.providers.offline.writing.reply import Reply, as_dict, as_list
from agents.support import catalogue
from agents.support.catalogue import Language
from agents.support.vocabulary import Skill


def choose_entry(entries: Sequence[Mapping[str, Any]], inquiry: str) -> Mapping[str, Any] | None:
    """The entry for the customer's problem if there is one, else the best entry about no
    particular problem; never an entry about another problem than theirs."""
    problems = problems_in(inquiry)
    usable = [e for e in entries if e.get("body") and entry_problem(e) in (problems | {None})]
    for_problem = [e for e in usable if entry_problem(e) in problems]
    best = for_problem or usable
    return best[0] if best else None


def faq_text(lang: str, entry: Mapping[str, Any], *, order_known: bool) -> str:
    """The article's text without what the customer needs not be asked ("" if nothing is
    left)."""
    answer = str(entry.get("body") or "")
    rules = [(cue, "") for cue in TO_SUPPORT[lang]]
    if order_known:
        rules = [*GIVEN_ORDER[lang], *rules]
    for cue, replacement in rules:
        answer = re.sub(cue, replacement, answer)
    return re.sub(r" {2,}", " ", answer).strip()


def topic(lang: Language, entry: Mapping[str, Any]) -> str:
    """What the entry is about, in the shop's words (its category's)."""
    key = f"faq_topic.{entry.get('category') or ''}"
    return catalogue.say(lang, key if catalogue.has(lang, key) else "faq_topic.other")


def faq_paragraphs(
    reply: Reply, answers: Mapping[str, dict[str, Any]], brief: dict[str, Any]
) -> list[str]:
    """The FAQ entry for the customer's problem, in the shop's words, when it adds something:
    the FAQ agent's, or the help another agent looked up beside its check (the payment
    agent's coupon conditions), which says nothing when it found nothing."""
    tools = answers.get("faq")
    if tools is None:
        looked_up = next((found for found in answers.values() if Skill.SEARCH_FAQ in found), None)
        entry = _chosen(_entries(looked_up), brief) if looked_up else None
        return _entry_paragraph(reply, entry, brief) if entry is not None else []
    entry = _chosen(_entries(tools), brief)
    if entry is not None:
        said = _entry_paragraph(reply, entry, brief)
        if said:
            return said
    if brief.get("intent") == "contact_human" or entry is not None or len(reply.agents) > 1:
        return []  # the hand-over sentence answers a request for a person; others answered
    return [reply.say("faq_none")]


def _chosen(entries: list[dict[str, Any]], brief: dict[str, Any]) -> Mapping[str, Any] | None:
    """The entry to tell: one that adds to the actions in hand when there is one ("how do I
    cancel?" found first for "cancel it, and how long do I have to return?" is passed over for
    the returns article), else the best, which ``_entry_paragraph`` then leaves unsaid."""
    fresh = [entry for entry in entries if not _covered_by_action(entry, brief)]
    return choose_entry(fresh, _inquiry(brief)) or choose_entry(entries, _inquiry(brief))


def _inquiry(brief: dict[str, Any]) -> str:
    return str(brief.get("inquiry") or "")


def _entries(tools: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The entries a look-up returned: a general question's answer, or a search's entries."""
    return [
        as_dict(as_dict(tools.get("answer_general_question")).get("answer")),
        *map(as_dict, as_list(as_dict(tools.get(Skill.SEARCH_FAQ)).get("entries"))),
    ]


def _entry_paragraph(reply: Reply, entry: Mapping[str, Any], brief: dict[str, Any]) -> list[str]:
    """``entry`` told in the shop's words; nothing when an action in hand covers it or nothing
    is left once what the customer gave is cut."""
    if _covered_by_action(entry, brief):
        return []
    known = bool(reply.known_order or reply.named_orders)
    answer = faq_text(reply.lang, entry, order_known=known)
    if not answer:
        return []
    return [reply.say("faq_answer", topic=topic(reply.lang, entry), answer=answer)]


def _covered_by_action(entry: Mapping[str, Any], brief: dict[str, Any]) -> bool:
    """An article on how to ask for what is already being done ("how do I cancel?" next to
    the cancellation itself) says nothing new."""
    kinds = {
        str(as_dict(item).get("kind"))
        for item in [*as_list(brief.get("pending_actions")), *as_list(brief.get("action_results"))]
    }
    return explains_action(entry, kinds)
