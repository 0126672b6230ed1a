"""Replay: past conversations re-run in the sandbox, what the AI proposes now against what the
operators decided then.

``replay_select`` reads conversations from the shop's database (a period, an intent, escalated
or not); ``replay_case`` turns one into a case whose turns are the customer's messages;
``operator_decisions`` reads what the operators did with each action the AI proposed then
(approved, approved with another amount, rejected); ``replay_verdict`` compares that with the
actions proposed in the sandbox now. A conversation with no decided action is replayed and
its reply diffed, but does not count in the agreement.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, cast

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from agents.models import Escalation, EscalationStatus, Inquiry, Message, MessageAuthor
from agents.simulation.reasons import Reason, reason
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.shapes import PendingAction
from agents.support.vocabulary import OperatorDecision

D = OperatorDecision
# The decisions that say what the right action was; a take-over says only "a person did it".
COUNTED_DECISIONS: Final = (D.APPROVE, D.EDIT, D.REJECT)
REPLAY_LIMIT: Final = 500


@dataclass(frozen=True)
class ReplayFilter:
    """Which conversations to replay: created within [since, until), of an intent, escalated
    (decided by a person) or not (None: either)."""

    since: dt.datetime | None = None
    until: dt.datetime | None = None
    intent: str = ""
    escalated: bool | None = None
    limit: int = REPLAY_LIMIT

    def as_json(self) -> dict[str, Any]:
        return {
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "intent": self.intent,
            "escalated": self.escalated,
        }


def replay_select(selection: ReplayFilter) -> QuerySet[Inquiry]:
    """The conversations to replay, oldest first, with their messages and escalations."""
    inquiries = Inquiry.objects.select_related("customer").order_by("created_at")
    if selection.since:
        inquiries = inquiries.filter(created_at__gte=selection.since)
    if selection.until:
        inquiries = inquiries.filter(created_at__lt=selection.until)
    if selection.intent:
        inquiries = inquiries.filter(intent=selection.intent)
    if selection.escalated is not None:
        decided = Escalation.objects.filter(
            inquiry=OuterRef("pk"), status=EscalationStatus.DECIDED
        ).exclude(actions=[])
        inquiries = inquiries.filter(Exists(decided) if selection.escalated else ~Exists(decided))
    return inquiries.prefetch_related(
        Prefetch("messages", queryset=Message.objects.order_by("created_at")),
        Prefetch("escalations", queryset=Escalation.objects.order_by("created_at")),
    )[: selection.limit]


def replay_case(inquiry: Inquiry) -> dict[str, Any]:
    """The conversation as a case: the customer, their language, one turn per message."""
    texts = [m.text for m in inquiry.messages.all() if m.author_kind == MessageAuthor.CUSTOMER]
    return {
        "id": str(inquiry.pk),
        "category": inquiry.intent or "none",
        "customer": inquiry.customer.code,
        "lang": inquiry.language or "ja",
        "turns": [{"text": text} for text in texts or [inquiry.text]],
    }


def replay_reply_then(inquiry: Inquiry) -> str:
    """What the AI answered then, every turn's reply in order."""
    replies = [m.text for m in inquiry.messages.all() if m.author_kind == MessageAuthor.AI]
    return "\n\n".join(replies)


def operator_decisions(inquiry: Inquiry) -> list[dict[str, Any]]:
    """Each action the operators decided: its kind, order, the decision and, for an action
    with an amount, the amount as decided (an edit's amount)."""
    decided = []
    for escalation in inquiry.escalations.all():
        params = {
            a["action_id"]: a.get("params") or {}
            for a in cast(list[PendingAction], escalation.actions)
        }
        for shown in action_decisions_shown(escalation):
            if shown["decision"] in COUNTED_DECISIONS:
                proposed = params[shown["action_id"]]
                decided.append(
                    {
                        "kind": shown["kind"],
                        "order": proposed.get("order_number"),
                        "decision": shown["decision"],
                        # Only an action priced by an amount is judged on it (a cancellation's
                        # amount at risk is the order's total, not something decided).
                        "amount": (shown["amount"] or None) if "amount" in proposed else None,
                    }
                )
    return decided


def proposals(turns: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions the replayed run proposed, over all its turns."""
    return [
        {
            "kind": a.get("kind"),
            "order": (a.get("params") or {}).get("order_number"),
            "amount": (a.get("params") or {}).get("amount"),
        }
        for turn in turns
        for a in turn.get("pending_actions", [])
    ]


def replay_verdict(
    decisions: list[dict[str, Any]], proposed: list[dict[str, Any]]
) -> tuple[bool | None, list[Reason]]:
    """Whether what the AI proposes now agrees with every decision the operators made, and
    where it does not. An approval wants the same action (at the approved amount), an edit the
    edited amount, a rejection no such action. None: nothing was decided, nothing to agree."""
    if not decisions:
        return None, []
    reasons = []
    for decision in decisions:
        same = [
            p for p in proposed if (p["kind"], p["order"]) == (decision["kind"], decision["order"])
        ]
        what = {"kind": decision["kind"], "order": decision["order"]}
        if decision["decision"] == D.REJECT:
            if same:
                reasons.append(reason("replay_rejected", **what))
        elif not same:
            reasons.append(reason("replay_unproposed", **what))
        elif decision["amount"] and not any(p["amount"] == decision["amount"] for p in same):
            amount, decided = same[0]["amount"], decision["amount"]
            reasons.append(reason("replay_amount", **what, amount=amount, decided=decided))
    return not reasons, reasons


def reply_diff(then: str, now: str) -> str:
    """A unified diff of the reply then and now (empty when they are the same)."""
    lines = difflib.unified_diff(
        then.splitlines(), now.splitlines(), fromfile="then", tofile="now", lineterm=""
    )
    return "\n".join(lines)
