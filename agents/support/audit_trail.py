"""What the agents and the operators did, written to the audit log (content-free).

Thin translations of run facts into ``audit_record`` calls: ids, names, statuses, amounts and
digests, never what the customer, a model or an operator wrote.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

from agents.models import InquiryStatus, StaffText, StaffTextKind
from agents.support.grounds import GroundsDict
from netshop.audit import AuditAction, audit_record


def agent_actor(name: str) -> str:
    """How an agent signs the audit log: ``agent:shipping``."""
    return f"agent:{name}"


SUPERVISOR = agent_actor("supervisor")


def inquiry_received(*, inquiry_id: object, customer_id: str, channel: str, length: int) -> None:
    audit_record(
        action=AuditAction.INQUIRY_RECEIVED,
        actor=f"channel:{channel}",
        inquiry_id=str(inquiry_id),
        data={"customer_id": customer_id, "channel": channel, "length": length},
    )


def inquiry_routed(*, inquiry_id: str, classification: dict[str, Any]) -> None:
    audit_record(
        action=AuditAction.INQUIRY_ROUTED,
        actor=SUPERVISOR,
        inquiry_id=inquiry_id,
        data={
            "intent": classification.get("intent"),
            "secondary_intents": classification.get("secondary_intents", []),
            "agents": classification.get("agents", []),
            "language": classification.get("language"),
            "confidence": classification.get("confidence"),
            "injection_suspected": classification.get("injection_suspected", False),
        },
    )


def handoffs_settled(
    *, inquiry_id: str, receipts: list[dict[str, Any]], previous: list[dict[str, Any]]
) -> None:
    """Audit each receipt whose verdict is new since the last time the run was recorded: one
    entry per hand-off and verdict, the receipt itself (who received it, when it started,
    the envelope's status: content-free) under the verdict the supervisor gave it. One entry,
    where four (started, envelope, receipt, verdict) once said the same thing and drowned the
    decisions and side effects a manager looks for."""
    seen = {(r.get("handoff_id"), r.get("verdict")) for r in previous}
    for receipt in receipts:
        if (receipt["handoff_id"], receipt["verdict"]) in seen:
            continue
        audit_record(
            action=AuditAction.HANDOFF_VERDICT,
            actor=SUPERVISOR,
            inquiry_id=inquiry_id,
            verdict=receipt["verdict"],
            data=receipt,
        )


def wait_opened(*, escalation: Any) -> None:
    audit_record(
        action=AuditAction.WAIT_OPENED,
        actor=SUPERVISOR,
        inquiry_id=str(escalation.inquiry_id),
        reason=escalation.reason,
        data={
            "escalation_id": str(escalation.pk),
            "turn": escalation.turn,
            "kind": escalation.kind,
            "owner": escalation.owner,
            "deadline": escalation.deadline.isoformat(),
            "resume_token_id": str(escalation.resume_token_id),
            "amount_at_risk": escalation.amount_at_risk,
            "actions": [a["action_id"] for a in escalation.actions],
        },
    )


def claim_changed(*, escalation: Any, username: str, claimed: bool) -> None:
    audit_record(
        action=AuditAction.ESCALATION_CLAIMED if claimed else AuditAction.ESCALATION_RELEASED,
        actor=username,
        inquiry_id=str(escalation.inquiry_id),
        reason=escalation.reason,
        data={"escalation_id": str(escalation.pk)},
    )


def claim_moved(*, escalation: Any, action: AuditAction, actor: str, previous: str | None) -> None:
    """A claim changed hands without its holder letting go: assigned, taken over by a
    manager, timed out, or moved to the managers' queue past its deadline."""
    audit_record(
        action=action,
        actor=actor,
        inquiry_id=str(escalation.inquiry_id),
        reason=escalation.reason,
        data={
            "escalation_id": str(escalation.pk),
            "previous": previous,
            "holder": escalation.claimed_by.username if escalation.claimed_by else None,
            "owner": escalation.owner,
        },
    )


def conversation_assigned(*, inquiry_id: object, actor: str, assignee: str, previous: str) -> None:
    audit_record(
        action=AuditAction.CONVERSATION_ASSIGNED,
        actor=actor,
        inquiry_id=str(inquiry_id),
        data={"assignee": assignee, "previous": previous or None},
    )


def decided(
    *,
    escalation: Any,
    username: str,
    decision: str,
    params: dict[str, Any],
    reason: str = "",
    action_id: str | None = None,
    policy_version: int | None = None,
) -> None:
    """Who decided what, and what changed against the recommendation (and the shop policy's
    version an approval was checked against).

    The operator's ``reason`` is kept in ``StaffText`` for managers; the entry carries only
    its digest. ``action_id`` names the one action decided, when actions are decided apart.
    """
    actions = [a for a in escalation.actions if action_id is None or a["action_id"] == action_id]
    data: dict[str, Any] = {
        "escalation_id": str(escalation.pk),
        "kind": escalation.kind,
        "recommended": [
            {"action_id": a["action_id"], "kind": a["kind"], **_figures(a.get("params", {}))}
            for a in actions
        ],
        "changes": _changes(actions, params),
    }
    if action_id is not None:
        data["action_id"] = action_id
    if policy_version is not None:
        data["policy_version"] = policy_version
    if reason.strip():
        data["reason_digest"] = staff_text_keep(
            inquiry_id=escalation.inquiry_id,
            escalation_id=escalation.pk,
            action_id=action_id or "",
            kind=StaffTextKind.DECISION_REASON,
            author=username,
            text=reason,
        )
    audit_record(
        action=f"decision.{decision}",
        actor=username,
        inquiry_id=str(escalation.inquiry_id),
        reason=escalation.reason,
        operation_id=action_id or next((a["action_id"] for a in escalation.actions), None),
        data=data,
    )


def _changes(actions: list[dict[str, Any]], params: dict[str, Any]) -> list[dict[str, Any]]:
    changes = []
    for action in actions:
        recommended = action.get("params", {})
        for key, value in params.items():
            if recommended.get(key) == value:
                continue
            change = {"action_id": action["action_id"], "param": key}
            if isinstance(value, int):  # figures are shown; free text only as "changed"
                change |= {"recommended": recommended.get(key), "decided": value}
            changes.append(change)
    return changes


def text_digest(text: str) -> str:
    """The sha256 the chain stores in place of a text."""
    return hashlib.sha256(text.encode()).hexdigest()


def staff_text_keep(
    *,
    inquiry_id: UUID | str,
    kind: StaffTextKind,
    author: str,
    text: str,
    escalation_id: UUID | str | None = None,
    action_id: str = "",
) -> str:
    """Keep what staff wrote where managers read it; returns the digest for the chain.

    Written before the audit entry, inside the caller's transaction (the lock order: the
    audit lock last), so the text exists if and only if its entry does.
    """
    digest = text_digest(text)
    StaffText.objects.create(
        inquiry_id=inquiry_id,
        escalation_id=escalation_id,
        action_id=action_id,
        kind=kind,
        author=author,
        text=text,
        digest=digest,
    )
    return digest


def autonomy_changed(*, intent: str, before: str, after: str, actor: str) -> None:
    """A manager changed how much the AI may do on its own for one intent."""
    audit_record(
        action=AuditAction.AUTONOMY_CHANGED,
        actor=actor,
        data={"intent": intent, "before": before, "after": after},
    )


def draft_sent(*, escalation: Any, edited: bool, length: int, actor: str) -> None:
    """A person sent the reply the AI drafted, as drafted or edited (an edited draft is a
    miss of the AI's, counted on the dashboard)."""
    audit_record(
        action=AuditAction.DRAFT_SENT,
        actor=actor,
        inquiry_id=str(escalation.inquiry_id),
        reason=escalation.reason,
        data={"escalation_id": str(escalation.pk), "edited": edited, "length": length},
    )


def reply_sent(*, inquiry_id: str, status: str, language: str, length: int, actor: str) -> None:
    audit_record(
        action=AuditAction.REPLY_SENT,
        actor=actor,
        inquiry_id=inquiry_id,
        data={"status": status, "language": language, "length": length},
    )


def _figures(params: dict[str, Any]) -> dict[str, Any]:
    """The checkable parameters of an action (order, amount), not its free text."""
    return {k: v for k, v in params.items() if k in ("order_number", "amount")}


def run_progress(inquiry: Any, state: dict[str, Any], previous: dict[str, Any]) -> None:
    """Audit what a step of the run added (routing, hand-offs, the reply) since ``previous``."""
    inquiry_id = str(inquiry.pk)
    if state.get("classification") and not previous["intent"]:
        inquiry_routed(inquiry_id=inquiry_id, classification=state["classification"])
    handoffs_settled(
        inquiry_id=inquiry_id, receipts=inquiry.handoffs, previous=previous["handoffs"] or []
    )
    if inquiry.reply and inquiry.reply != previous["reply"]:
        reply_sent(
            inquiry_id=inquiry_id,
            status=inquiry.status,
            language=inquiry.language,
            length=len(inquiry.reply),
            actor=_reply_author(inquiry, state),
        )


def _reply_author(inquiry: Any, state: dict[str, Any]) -> str:
    if inquiry.status == InquiryStatus.HANDLED_BY_HUMAN:
        operators = [d.get("operator") for d in state.get("decisions", {}).values()]
        return next((name for name in operators if name), "operator")
    return SUPERVISOR


def message_posted(*, message: Any, actor: str) -> None:
    """A message joined a conversation: who wrote it, in what language, how long, its digest;
    an AI message's grounds as figures (``grounds_figures``)."""
    data = {
        "message_id": str(message.pk),
        "author_kind": message.author_kind,
        "channel": message.channel,
        "language": message.language,
        "length": len(message.text),
        "digest": text_digest(message.text),
        "turn": message.turn,
    }
    if message.grounds:
        data["grounds"] = grounds_figures(message.grounds)
    audit_record(
        action=AuditAction.MESSAGE_POSTED,
        actor=actor,
        inquiry_id=str(message.inquiry_id),
        data=data,
    )


def grounds_figures(grounds: GroundsDict) -> dict[str, Any]:
    """What the chain keeps of an answer's grounds: the intents and confidence, how many
    records it read, the verdict and the kinds of its problems; never a number, an amount
    or a question the reply or the records hold (those are the customer's)."""
    reading, records, check = grounds["reading"], grounds["records"], grounds["check"]
    return {
        "intents": reading["intents"],
        "confidence": reading["confidence"],
        "injection_suspected": reading["injection_suspected"],
        "records": {
            "orders": len(records["orders"]),
            "tracking": len(records["tracking"]),
            "faq": len(records["faq"]),
        },
        "check": "passed" if check["passed"] else "failed",
        "problems": sorted({p["kind"] for p in check["problems"]}),
        "problem_count": len(check["problems"]),
    }


def conversation_changed(*, inquiry_id: object, action: AuditAction, actor: str) -> None:
    """A person took a conversation over, handed it back, closed, reopened or flagged it."""
    audit_record(action=action, actor=actor, inquiry_id=str(inquiry_id), data={})


def conversation_flagged(*, inquiry_id: UUID | str, actor: str, reason: str) -> None:
    """A lead flagged an AI-resolved conversation; their reason is kept for managers."""
    digest = staff_text_keep(
        inquiry_id=inquiry_id, kind=StaffTextKind.FLAG_REASON, author=actor, text=reason
    )
    audit_record(
        action=AuditAction.CONVERSATION_FLAGGED,
        actor=actor,
        inquiry_id=str(inquiry_id),
        data={"reason_digest": digest},
    )


def answer_reviewed(*, review: Any, actor: str) -> None:
    """A reviewer's verdict on an AI answer: the verdict and its reason category; their note
    is kept for managers (``StaffText``), the entry carries only its digest."""
    data: dict[str, Any] = {
        "escalation_id": str(review.escalation_id),
        "turn": review.turn,
        "intent": review.intent,
        "verdict": review.verdict,
        "reason": review.reason,
    }
    if review.note.strip():
        data["reason_digest"] = staff_text_keep(  # the audit rows show it to managers
            inquiry_id=review.inquiry_id,
            escalation_id=review.escalation_id,
            kind=StaffTextKind.REVIEW_NOTE,
            author=actor,
            text=review.note,
        )
    audit_record(
        action=AuditAction.ANSWER_REVIEWED,
        actor=actor,
        inquiry_id=str(review.inquiry_id),
        verdict=review.verdict,
        reason=review.reason,
        data=data,
    )


def answer_feedback_given(*, feedback: Any) -> None:
    """A customer said whether an AI answer solved their problem: the answer's id, solved or
    not, the rating (a figure) and how it came; of their comment only its length and digest."""
    data: dict[str, Any] = {
        "message_id": str(feedback.message_id),
        "turn": feedback.turn,
        "intent": feedback.intent,
        "solved": feedback.solved,
        "rating": feedback.rating,
        "source": feedback.source,
        "channel": feedback.channel,
        "comment_length": len(feedback.comment),
    }
    if feedback.comment:
        data["comment_digest"] = text_digest(feedback.comment)
    audit_record(
        action=AuditAction.ANSWER_FEEDBACK,
        actor="customer",
        inquiry_id=str(feedback.inquiry_id),
        data=data,
    )


def answer_corrected(*, inquiry_id: UUID | str, escalation_id: UUID | str, actor: str) -> None:
    """A reviewer sent the customer a correction of a wrong AI answer (the message itself is
    audited as any message is: ``message_posted``)."""
    audit_record(
        action=AuditAction.ANSWER_CORRECTED,
        actor=actor,
        inquiry_id=str(inquiry_id),
        data={"escalation_id": str(escalation_id)},
    )
