"""The detail page: one escalation's hand-off package, assembled in a fixed number of queries.

It reads through the selectors and composes the parts shaped in ``actions``, ``decision``,
``handoffs``, ``timeline`` and ``conversation``; the detail page, its main column and its
live panel all render from it, so a re-read after a decision shows the facts as they now are
(the order's payment read afresh, the reply the customer got) and the whole thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from agents.models import ConsoleEvent, Escalation, EscalationStatus, Inquiry
from agents.support.conversations.selectors import inquiry_get
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.claims import claim_may_change
from agents.support.escalations.selectors import escalation_get
from agents.support.vocabulary import Skill
from operators.console.presenters.actions import (
    ActionView,
    action_view,
    with_decision,
    with_facts_now,
)
from operators.console.presenters.conversation import MessageView, thread_views
from operators.console.presenters.deadlines import Due, due
from operators.console.presenters.decision import (
    Change,
    DecisionPanel,
    decision_changes,
    decision_panel,
    decision_state,
)
from operators.console.presenters.handoffs import HandoffRow, handoff_rows
from operators.console.presenters.timeline import TimelineEntry, timeline_entry
from operators.console.selectors import (
    colleague_names,
    conversation_messages,
    current_order_facts,
    customer_earlier_inquiries,
    inquiry_escalations,
    inquiry_timeline,
)
from operators.headlines import escalation_headline


@dataclass
class DetailView:
    escalation: Escalation
    inquiry: Inquiry
    package: dict[str, Any]
    actions: list[ActionView]
    headline: str
    decisions: DecisionPanel
    can_edit_amount: bool
    state: str  # decided | claimed_by_other | claimed_by_me | unclaimed
    due: Due
    edit_amount: int | None = None
    edit_reason: str = ""
    changes: list[Change] = field(default_factory=list)
    handoffs: list[HandoffRow] = field(default_factory=list)
    timeline: list[TimelineEntry] = field(default_factory=list)
    related: list[Escalation] = field(default_factory=list)
    earlier: list[Inquiry] = field(default_factory=list)
    thread: list[MessageView] = field(default_factory=list)
    may_change_claim: bool = False  # claim, release, assign (``claim_may_change``)
    colleagues: list[str] = field(default_factory=list)  # who "Assign to…" offers

    @property
    def takes_over_claim(self) -> bool:
        """A manager on someone else's claim: they may take it over or release it."""
        return self.state == "claimed_by_other" and self.may_change_claim

    @property
    def latest_reply(self) -> str:
        """What the customer was last told, when it is no longer the hand-off's draft."""
        reply = self.inquiry.reply
        return reply if reply and reply != self.package.get("draft_reply") else ""

    @property
    def escalation_id(self) -> str:
        return str(self.escalation.pk)


def detail_view(
    escalation: Escalation,
    *,
    inquiry: Inquiry,
    user: Any,
    events: list[ConsoleEvent],
    related: list[Escalation],
    earlier: list[Inquiry] | None = None,
    sent_decision: str = "",
    facts_now: dict[str, dict[str, Any]] | None = None,
    thread: list[MessageView] | None = None,
    colleagues: list[str] | None = None,
) -> DetailView:
    now = facts_now or {}
    asked = str(((escalation.package or {}).get("inquiry") or {}).get("text") or "")
    actions = [action_view(a, customer_text=asked) for a in escalation.actions]
    actions = [with_facts_now(a, now.get(a.params.get("order_number", ""))) for a in actions]
    decided = {d["action_id"]: d for d in action_decisions_shown(escalation)}
    actions = [with_decision(a, decided.get(a.action_id)) for a in actions]
    first = actions[0] if actions else None
    state = decision_state(escalation, user=user)
    # The related escalations come without their actions and package: the timeline names
    # them from their kind and reason, and this one in full.
    headlines = {str(escalation.pk): escalation_headline(escalation)}
    return DetailView(
        escalation=escalation,
        inquiry=inquiry,
        package=escalation.package or {},
        actions=actions,
        headline=escalation_headline(escalation),
        decisions=decision_panel(escalation, state=state, sent=sent_decision, user=user),
        can_edit_amount=any(a.kind == Skill.PROCESS_REFUND for a in actions),
        state=state,
        due=due(escalation.deadline, timezone.now()),
        edit_amount=next(
            (a.params.get("amount") for a in actions if a.kind == Skill.PROCESS_REFUND), None
        ),
        edit_reason=first.params.get("reason", "") if first else "",
        changes=decision_changes(escalation),
        handoffs=handoff_rows(inquiry),
        timeline=[timeline_entry(e, headlines) for e in events],
        related=[r for r in related if r.pk != escalation.pk],
        earlier=earlier or [],
        thread=thread or [],
        may_change_claim=claim_may_change(escalation, user),
        colleagues=colleagues or [],
    )


def detail_page(*, escalation_id: object, user: Any, sent_decision: str = "") -> DetailView:
    """Everything the detail page shows, read in a fixed number of queries.

    ``sent_decision`` is the kind of a decision the page answers (refused or invalid), so
    its form stands open again.
    """
    escalation = escalation_get(escalation_id=escalation_id)
    inquiry = inquiry_get(inquiry_id=escalation.inquiry_id)
    numbers = [str((a.get("params") or {}).get("order_number", "")) for a in escalation.actions]
    return detail_view(
        escalation,
        inquiry=inquiry,
        user=user,
        events=inquiry_timeline(inquiry_id=escalation.inquiry_id),
        related=inquiry_escalations(inquiry_id=escalation.inquiry_id),
        earlier=customer_earlier_inquiries(inquiry=inquiry),
        sent_decision=sent_decision,
        facts_now=current_order_facts(inquiry=inquiry, numbers=[n for n in numbers if n]),
        thread=thread_views(conversation_messages(inquiry=inquiry)),
        colleagues=_colleagues(escalation, user=user),
    )


def _colleagues(escalation: Escalation, *, user: Any) -> list[str]:
    if escalation.status == EscalationStatus.DECIDED or not claim_may_change(escalation, user):
        return []
    holder = escalation.claimed_by.username if escalation.claimed_by else ""
    return colleague_names(exclude=holder)
