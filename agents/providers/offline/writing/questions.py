"""The offline model's questions to the customer, and its words for a hand-over with a reason.

A question is answerable in one line: what is missing, the options numbered (order number
and a short description), and how to answer ("reply with the number or the order number").
The brief is what ``agents.team.graph.supervisor.ask`` builds. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import TOOL, word
from agents.providers.offline.writing.reply import language_of
from agents.support import catalogue
from agents.support.catalogue import Language, say

# The reasons the offline model gives (``referrals.reason``) that a question may quote back.
QUOTABLE_REASONS: Final = frozenset(
    {"parcel not delivered", "damaged item", "wrong item", "charged twice"}
)


def write_question(brief: Mapping[str, Any]) -> str:
    """The question to the customer, from the ``<ask>`` brief."""
    lang = language_of(brief.get("language"))
    slot = str(brief.get("slot") or "other")
    options = [o for o in brief.get("options") or [] if isinstance(o, Mapping) and o.get("value")]
    if slot == "intent":  # an unsure reading of a request to act, put back to the customer
        action = word(TOOL, lang, brief.get("about"), fallback="tool")
        return "\n".join(
            [say(lang, "question.thanks"), say(lang, "question.confirm", action=action)]
        )
    lines = [say(lang, "question.thanks"), _asks(lang, slot, str(brief.get("about") or ""))]
    for index, option in enumerate(options, start=1):
        if option.get("label"):
            line = say(
                lang, "question.option", index=index, value=option["value"], label=option["label"]
            )
        else:
            line = say(lang, "question.option_bare", index=index, value=option["value"])
        lines.append(line)
    if options:
        numbers = _alternatives(lang, [str(i) for i in range(1, len(options) + 1)])
        how = "question.answer_how_order" if slot == "order" else "question.answer_how"
        lines.append(say(lang, how, numbers=numbers))
    return "\n".join(lines)


def _alternatives(lang: Language, items: list[str]) -> str:
    """["1", "2", "3"] -> "1、2、3" / "1, 2 or 3"."""
    if len(items) <= 1:
        return "".join(items)
    head = say(lang, "list.comma").join(items[:-1])
    return say(lang, "list.or", head=head, last=items[-1])


def _asks(lang: Language, slot: str, about: str) -> str:
    if slot == "order":
        if about in QUOTABLE_REASONS:
            quoted = say(lang, "question.about." + about.replace(" ", "_"))
            return say(lang, "question.which_order_about", about=quoted)
        return say(lang, "question.which_order")
    key = f"question.which_{slot}"
    return say(lang, key if catalogue.has(lang, key) else "question.which_other")


def handover_sentence(lang: Language, escalation: Mapping[str, Any]) -> str:
    """Why a person follows up, in the customer's words, for the reasons that have one."""
    detail = escalation.get("detail") or {}
    reason = escalation.get("reason")
    if reason == "claim_contradicts_records":
        claim = f"handover.claim.{detail.get('claim')}"
        key = claim if catalogue.has(lang, claim) else "handover.claim"
        said = say(lang, key, order_ref=fmt.order_ref(lang, detail.get("order_number")))
        return _with_help(lang, said, f"{claim}.help")
    if reason == "instructions_to_system":
        return say(lang, "handover.instructions_to_system")
    if reason == "unsupported_request":
        request = f"handover.unsupported.{detail.get('request')}"
        return say(lang, request) if catalogue.has(lang, request) else ""
    return ""


def _with_help(lang: Language, said: str, key: str) -> str:
    """A claim the customer can often settle themselves (two lines for one card payment are
    usually the authorisation next to the charge) comes with what the shop's help says."""
    if not catalogue.has(lang, key):
        return said
    return ("" if lang == "ja" else " ").join([said, say(lang, key)])
