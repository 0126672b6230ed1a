"""The autonomy page: each intent's level beside the figures that argue for changing it.

A manager sees, per intent, how much the AI may do on its own (``agents.support.autonomy``),
its reviewed accuracy with the 95% interval and what that says (``quality``), and how its
drafts went out: sent as the AI wrote them, edited first (a miss), or taken over. The level is
the manager's to change; the page says when the figures support more autonomy or demand less.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db.models import Count, Q
from django.db.models.fields.json import KT

from agents.models import Escalation, EscalationKind, EscalationStatus
from agents.support.autonomy.levels import AUTONOMY_INTENTS, DEFAULT_LEVELS, autonomy_levels
from agents.support.vocabulary import OperatorDecision
from operators import labels
from operators.audit import quality, support
from operators.audit.presenters import accuracy_row
from operators.audit.selectors import Window

AUTONOMY_DAYS = 90  # the figures behind a level: the dashboard's longest period


@dataclasses.dataclass(frozen=True)
class DraftOutcomes:
    """How one intent's drafts were decided: sent as written, edited first, taken over."""

    unchanged: int = 0
    edited: int = 0
    taken_over: int = 0

    @property
    def decided(self) -> int:
        return self.unchanged + self.edited + self.taken_over

    @property
    def misses(self) -> int:
        """Drafts a person did not send as the AI wrote them."""
        return self.edited + self.taken_over


def draft_outcomes(window: Window) -> dict[str, DraftOutcomes]:
    """Drafts decided in the window, by the intent they answered (one query)."""
    send = Q(decision__decision=OperatorDecision.SEND_REPLY)
    rows = (
        Escalation.objects.filter(
            kind=EscalationKind.DRAFT,
            status=EscalationStatus.DECIDED,
            decided_at__gte=window.start,
            decided_at__lt=window.end,
        )
        .annotate(intent=KT("package__draft__intent"))
        .values("intent")
        .annotate(
            unchanged=Count("pk", filter=send & Q(decision__edited=False)),
            edited=Count("pk", filter=send & Q(decision__edited=True)),
            taken_over=Count("pk", filter=Q(decision__decision=OperatorDecision.TAKE_OVER)),
        )
    )
    return {
        row["intent"] or "": DraftOutcomes(row["unchanged"], row["edited"], row["taken_over"])
        for row in rows
    }


def draft_table(window: Window) -> dict[str, Any]:
    """The dashboard's drafts: per intent and overall, sent as written, edited, taken over."""
    outcomes = draft_outcomes(window)
    rows = [
        {"intent": intent, "label": labels.label(labels.SKILL_LABELS, intent), "drafts": found}
        for intent, found in sorted(outcomes.items())
    ]
    overall = DraftOutcomes(
        unchanged=sum(o.unchanged for o in outcomes.values()),
        edited=sum(o.edited for o in outcomes.values()),
        taken_over=sum(o.taken_over for o in outcomes.values()),
    )
    return {"rows": rows, "overall": overall}


def autonomy_rows(window: Window) -> list[dict[str, Any]]:
    """One row per intent: its level, whether that is the default, the reviewed accuracy and
    its recommendation, the drafts' outcomes."""
    levels = autonomy_levels()
    accuracy = {a.intent: a for a in support.reviewed_quality(window).per_intent}
    drafts = draft_outcomes(window)
    rows = []
    for intent in AUTONOMY_INTENTS:
        measured = accuracy.get(intent, quality.Accuracy(intent, 0, 0))
        rows.append(
            accuracy_row(measured, {"date_from": window.first, "date_to": window.last})
            | {
                "label": labels.label(labels.SKILL_LABELS, intent),
                "level": levels[intent],
                "is_default": levels[intent] == DEFAULT_LEVELS[intent],
                "drafts": drafts.get(intent, DraftOutcomes()),
            }
        )
    return rows
