"""Escalations: record a run's wait for a person, and the people's claims and decisions.

Every change is attributed and published to the consoles after commit. Concurrent claims
and decisions are serialised on the escalation's row: exactly one decision wins, and the
others get a clear conflict naming who decided.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any, cast
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone, translation

from agents.models import (
    ActionState,
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    MessageAuthor,
)
from agents.support import audit_trail
from agents.support.conversations.messages import message_store
from agents.support.escalations.action_states import (
    action_amount_decided,
    action_record,
    action_state,
    all_actions_decided,
)
from agents.support.escalations.approvals import (
    EDITABLE_PARAMS,
    approval_policy,
    approver_refusal,
)
from agents.support.escalations.four_eyes import second_approval_mark
from agents.support.escalations.language import LanguageCheck, language_check, operator_words
from agents.support.escalations.not_solved import not_solved_released
from agents.support.escalations.package import run_retryable
from agents.support.escalations.reply_previews import ReplyPreview, reply_previewer
from agents.support.events.bus import publish
from agents.support.events.payloads import escalation_payload, inquiry_payload
from agents.support.run_requests import enqueue_run
from agents.support.shapes import Decision, PendingAction
from agents.support.vocabulary import MONEY_SKILLS, NOT_SOLVED, OperatorDecision, Skill
from netshop import selectors
from netshop.errors import DomainError
from netshop.policy import policy_in_force
from netshop.services.order_items import ItemRequest
from netshop.services.refunds import refund_proposal
from netshop.services.returns import return_proposal
from netshop.transactions import retry_conflicts

D = OperatorDecision
DECISIONS_BY_KIND: dict[EscalationKind, set[str]] = {
    EscalationKind.APPROVAL: {D.APPROVE, D.EDIT, D.REJECT, D.TAKE_OVER},
    EscalationKind.FAILURE: {D.TAKE_OVER},
    EscalationKind.FOLLOW_UP: {D.TAKE_OVER},
    EscalationKind.CUSTOMER_REQUEST: {D.TAKE_OVER},
    EscalationKind.REVIEW: {D.REVIEWED, D.TAKE_OVER},
    # Sending a draft is its own service (``drafts.draft_send``): it sends the reply.
    EscalationKind.DRAFT: {D.TAKE_OVER},
}
# A refund or cancellation that failed at the gateway: retry it as approved (APPROVE),
# give it up (REJECT), or answer the customer yourself.
RETRY_DECISIONS: set[str] = {D.APPROVE, D.REJECT, D.TAKE_OVER}
# A run that crashed: run the turn again (APPROVE), or answer the customer yourself.
RERUN_DECISIONS: set[str] = {D.APPROVE, D.TAKE_OVER}


def decisions_allowed(escalation: Escalation) -> set[str]:
    """What a person may decide here; a run waits on every escalation that holds actions."""
    if escalation.kind == EscalationKind.FAILURE and escalation.actions:
        return RETRY_DECISIONS
    if escalation.kind == EscalationKind.FAILURE and run_retryable(escalation):
        return RERUN_DECISIONS
    return DECISIONS_BY_KIND[EscalationKind(escalation.kind)]


def escalation_record_wait(
    *,
    inquiry: Inquiry,
    wait_key: str,
    kind: str,
    reason: str,
    summary: str,
    package: dict[str, Any],
    actions: list[PendingAction] | None = None,
    deadline_minutes: int | None = None,
) -> Escalation:
    """Record (once) that the run waits for a person, and tell the consoles. The wait is due
    within ``deadline_minutes``, by default the approvals' deadline."""
    actions = actions or []
    minutes = deadline_minutes or policy_in_force().approval_deadline_minutes
    escalation, created = Escalation.objects.get_or_create(
        wait_key=wait_key,
        defaults={
            "inquiry": inquiry,
            "turn": inquiry.turns or 1,
            "kind": kind,
            "reason": reason,
            "summary": summary[:300],
            "actions": actions,
            "package": package,
            "amount_at_risk": sum(int(a.get("amount_at_risk") or 0) for a in actions),
            "deadline": timezone.now() + timedelta(minutes=minutes),
            "action_decisions": _carried_approvals(actions),
        },
    )
    if created and escalation.action_decisions:  # waiting again: a manager's approval is next
        escalation.save(update_fields=second_approval_mark(escalation) or ["action_decisions"])
    if created:
        audit_trail.wait_opened(escalation=escalation)
        publish("escalation.created", escalation_payload(escalation))
    return escalation


def _carried_approvals(actions: list[PendingAction]) -> dict[str, Any]:
    """The approvals an action brings to a new wait (``approval_carried``: a lowered limit
    asked more of them at execution), recorded as its decision so far."""
    now = timezone.now().isoformat()
    return {
        action["action_id"]: {"record": carried, "by": carried["approvals"][0], "at": now}
        for action in actions
        if (carried := action.get("approval_carried"))
    }


def escalation_locked(escalation_id: UUID | str) -> Escalation:
    """The escalation, locked for this transaction (claims and decisions serialise on it)."""
    try:
        return (
            Escalation.objects.select_for_update().select_related("inquiry").get(pk=escalation_id)
        )
    except (Escalation.DoesNotExist, ValueError, ValidationError):
        raise DomainError("escalation_not_found") from None


def refuse_if_decided(escalation: Escalation) -> None:
    """A decided escalation is closed: a late claim or decision says who decided it."""
    if escalation.status == EscalationStatus.DECIDED:
        who = escalation.decided_by.username if escalation.decided_by else "someone"
        when = escalation.decided_at.isoformat() if escalation.decided_at else ""
        decision = (escalation.decision or {}).get("decision", "")
        done = _past_tense(decision)
        raise DomainError("already_decided", done=done, who=who, when=when)


def _past_tense(decision: str) -> str:
    """The decision as the (English) error message names it: "approved", "taken over"."""
    if decision not in D.values:
        return "decided"
    with translation.override(None):  # the untranslated label: DomainError text is English
        return str(D(decision).label)


def refuse_if_claimed_by_other(escalation: Escalation, user: User) -> None:
    """Only the holder decides (claims and assignment: ``agents.support.escalations.claims``)."""
    if escalation.claimed_by_id and escalation.claimed_by_id != user.pk:
        holder = escalation.claimed_by.username if escalation.claimed_by else "another operator"
        raise DomainError("claimed_by_other", who=holder)


@retry_conflicts
@transaction.atomic
def escalation_decide(
    *,
    escalation_id: UUID | str,
    user: User,
    decision: str,
    params: dict[str, Any] | None = None,
    reason: str = "",
    reply: str = "",
    confirm_language: bool = False,
    preview: str | None = None,
    action_id: str | None = None,
) -> Escalation:
    """Decide one action of an escalation (``action_id``), or every action still waiting
    (one click approves all); the escalation is decided, and the run resumes in a worker
    after commit, once every action has its decision. A take-over acts on all of them.

    A refund or cancellation at or above the policy's four-eyes amount waits for a second
    approval by another manager (``approvals``). The reply a decision on all actions sends
    is previewed here as the operator was shown it, and carried in the decision for the run
    to send. Words to the customer in another language than theirs need
    ``confirm_language``; ``preview``, the text the operator was shown, must still be the
    text (else they would approve words they never saw).
    """
    escalation = escalation_locked(escalation_id)
    if action_id is not None and decision != D.TAKE_OVER:
        _refuse_if_action_decided(escalation, action_id)
    refuse_if_decided(escalation)
    refuse_if_claimed_by_other(escalation, user)
    targets = _targets(escalation, decision=decision, action_id=action_id)
    record = decision_validated(
        escalation,
        decision=decision,
        params=params or {},
        reason=reason,
        reply=reply,
        actions=targets,
    )
    whole = decision == D.TAKE_OVER or (action_id is None and not escalation.action_decisions)
    record = _as_shown(
        escalation, record, user=user, whole=whole, confirmed=confirm_language, preview=preview
    )
    record["operator"] = user.username
    for action in targets:
        _decide_action(escalation, action, record, user=user)
    if not all_actions_decided(escalation):
        escalation.save(update_fields=["action_decisions", *second_approval_mark(escalation)])
        publish("escalation.action_decided", escalation_payload(escalation))
        return escalation
    return escalation_decided(escalation, record, user=user)


def escalation_decided(escalation: Escalation, record: dict[str, Any], *, user: User) -> Escalation:
    """Every action has its decision: the escalation is decided, and the run resumes (once:
    the row is locked, and a later decision finds it decided). Called with the row locked
    (``escalation_locked``) and ``record`` checked (``decision_validated``)."""
    escalation.decision = record
    escalation.status = EscalationStatus.DECIDED
    escalation.decided_by, escalation.decided_at = user, timezone.now()
    escalation.save(
        update_fields=[
            "decision",
            "status",
            "decided_by",
            "decided_at",
            "action_decisions",
            *second_approval_mark(escalation),
        ]
    )
    if not escalation.actions:
        audit_trail.decided(
            escalation=escalation,
            username=user.username,
            decision=record["decision"],
            params=record["params"],
            reason=record["reason"],
        )
    publish("escalation.decided", escalation_payload(escalation))
    if escalation.actions:  # the run waits on this decision
        enqueue_run(escalation.inquiry_id)  # the run resumes with the decisions
        return escalation
    if record["decision"] == D.TAKE_OVER:
        _hand_over(escalation.inquiry, record["reply"], operator=user)
    elif record["decision"] == D.APPROVE and run_retryable(escalation):
        _run_again(escalation.inquiry)
    elif escalation.reason == NOT_SOLVED:  # a verdict on the customer's "not solved"
        not_solved_released(escalation.inquiry)
    announce_resolved(escalation.inquiry, [escalation])
    return escalation


def _run_again(inquiry: Inquiry) -> None:
    """A person asked for a crashed run's turn to be run again: the conversation is queued
    and a worker takes the turn from its last checkpoint (a message the customer sent
    meanwhile is answered with it)."""
    locked = Inquiry.objects.select_for_update().get(pk=inquiry.pk)
    if locked.status != InquiryStatus.FAILED:
        return  # someone answered or took it over meanwhile
    locked.status = InquiryStatus.QUEUED
    locked.save(update_fields=["status", "updated_at"])
    publish("inquiry.updated", inquiry_payload(locked), subject=locked)
    enqueue_run(locked.pk)


def _targets(
    escalation: Escalation, *, decision: str, action_id: str | None
) -> list[PendingAction]:
    """The actions this decision decides: the one named, or all that still wait for one."""
    actions = cast(list[PendingAction], escalation.actions)
    if decision == D.TAKE_OVER:
        return actions  # a person answers instead: nothing of the run's goes ahead
    if action_id is None:
        return [a for a in actions if action_state(escalation, a) != ActionState.DECIDED]
    action = next((a for a in actions if a["action_id"] == action_id), None)
    if action is None:
        raise DomainError("action_not_found", action_id=action_id)
    return [action]


def _refuse_if_action_decided(escalation: Escalation, action_id: str) -> None:
    """A decided action is not decided again: the conflict names who decided it."""
    action = next((a for a in escalation.actions if a["action_id"] == action_id), None)
    if action is None or action_state(escalation, action) != ActionState.DECIDED:
        return
    entry = escalation.action_decisions[action_id]
    done = _past_tense(entry["record"]["decision"])
    raise DomainError("already_decided", done=done, who=entry["by"], when=entry["at"])


def _decide_action(
    escalation: Escalation, action: PendingAction, record: dict[str, Any], *, user: User
) -> None:
    """Record ``record`` on one action, or a second approval of the one it waits for. An
    edit after a first approval is refused (it would pay on one approval of a changed
    action); a rejection replaces it. The entry keeps every decision it replaced."""
    action_id = action["action_id"]
    earlier = action_record(escalation, action_id)
    if earlier is not None and record["decision"] == D.EDIT:  # awaiting a second approval
        raise DomainError("approved_action_not_editable", who=earlier.get("approvals", [""])[0])
    policy = policy_in_force()  # each approval records the version it was checked against
    if record["decision"] == D.APPROVE and earlier is not None:
        approvals = earlier.get("approvals", [])
        amount = action_amount_decided(action, earlier)
        approver_refusal(user=user, amount=amount, approvals=approvals, policy=policy)
        decided = {
            **earlier,
            "approvals": [*approvals, user.username],
            **approval_policy(policy, earlier),
        }
    else:
        decided = dict(record)
        if action["kind"] in MONEY_SKILLS and record["decision"] in (D.APPROVE, D.EDIT):
            amount = action_amount_decided(action, record)
            approver_refusal(user=user, amount=amount, approvals=[], policy=policy)
            decided["approvals"] = [user.username]
            decided.update(approval_policy(policy))
    replaced = escalation.action_decisions.get(action_id) or {}
    history = [*replaced.get("history", []), {k: v for k, v in replaced.items() if k != "history"}]
    escalation.action_decisions[action_id] = {
        "record": decided,
        "by": user.username,
        "at": timezone.now().isoformat(),
        **({"history": history} if replaced else {}),
    }
    audit_trail.decided(
        escalation=escalation,
        username=user.username,
        decision=record["decision"],
        params=record["params"],
        reason=record["reason"],
        action_id=action_id,
        policy_version=decided.get("policy_version"),
    )


def _as_shown(
    escalation: Escalation,
    record: dict[str, Any],
    *,
    user: User,
    whole: bool,
    confirmed: bool,
    preview: str | None,
) -> dict[str, Any]:
    """The record with the reply the operator was shown, once its language is confirmed.
    Only a decision on all actions at once has one reply to show; after a decision per
    action the run writes the reply from what happened."""
    if not whole:
        words = operator_words(
            decision=record["decision"], reason=record["reason"], reply=record["reply"]
        )
        check = language_check(words, customer_language=escalation.inquiry.language)
        refuse_unconfirmed_language(check, confirmed=confirmed)
        return record
    shown = _previewed(escalation, record, operator=user.username)
    refuse_unconfirmed_language(shown.language, confirmed=confirmed)
    if preview is not None and shown.exact and _lf(preview) != _lf(shown.text):
        raise DomainError("preview_outdated")
    if shown.exact and escalation.actions:
        return {**record, "preview": shown.record()}
    return record


def announce_resolved(inquiry: Inquiry, escalations: Iterable[Escalation]) -> None:
    """Tell the consoles that these decided escalations are done with: the inquiry reached
    its final status (the run acted and answered, or a person did)."""
    for escalation in escalations:
        publish(
            "escalation.resolved",
            escalation_payload(escalation) | {"inquiry_status": inquiry.status},
        )


def escalation_preview(
    *,
    escalation_id: UUID | str,
    user: User,
    decision: str,
    params: dict[str, Any] | None = None,
    reason: str = "",
    reply: str = "",
) -> ReplyPreview:
    """The reply this decision would send, checked as the decision would be (an invalid one
    is refused with the same error); nothing is decided or run."""
    try:
        escalation = Escalation.objects.select_related("inquiry__customer").get(pk=escalation_id)
    except (Escalation.DoesNotExist, ValueError, ValidationError):
        raise DomainError("escalation_not_found") from None
    record = decision_validated(
        escalation, decision=decision, params=params or {}, reason=reason, reply=reply
    )
    if escalation.action_decisions and decision != D.TAKE_OVER:
        # Some actions are decided on their own: the run writes the reply when it resumes.
        words = operator_words(decision=decision, reason=reason, reply=reply)
        check = language_check(words, customer_language=escalation.inquiry.language)
        return ReplyPreview(text="", language=check, exact=False)
    return _previewed(escalation, record, operator=user.username)


def _previewed(escalation: Escalation, record: dict[str, Any], *, operator: str) -> ReplyPreview:
    return reply_previewer()(
        escalation=escalation,
        decision=record["decision"],
        params=record["params"],
        reason=record["reason"],
        reply=record["reply"],
        operator=operator,
    )


def _lf(text: str) -> str:
    """Line breaks as the reply has them (a browser posts a form's as CRLF)."""
    return text.replace("\r\n", "\n")


def refuse_unconfirmed_language(language: LanguageCheck, *, confirmed: bool) -> None:
    """Words to the customer in another language than theirs go out only once confirmed."""
    if language.mismatch and not confirmed:
        raise DomainError(
            "reason_language_unconfirmed",
            text_language=LANGUAGE_NAMES.get(language.text, language.text),
            customer_language=LANGUAGE_NAMES.get(language.customer, language.customer),
        )


LANGUAGE_NAMES = {"ja": "Japanese", "en": "English"}


def decision_validated(
    escalation: Escalation,
    *,
    decision: str,
    params: dict[str, Any],
    reason: str,
    reply: str,
    actions: list[PendingAction] | None = None,
) -> dict[str, Any]:
    """The decision as it is recorded, or the ``DomainError`` that refuses it; an edit is
    checked against ``actions`` (the ones it decides; all of them by default)."""
    allowed = decisions_allowed(escalation)
    if decision not in allowed:
        raise DomainError(
            "invalid_decision", decision=repr(decision), allowed=sorted(map(str, allowed))
        )
    if decision == D.REJECT and not reason.strip():
        raise DomainError("reason_required")
    if decision == D.TAKE_OVER and not reply.strip():
        raise DomainError("reply_required")
    if decision == D.EDIT:
        targets = escalation.actions if actions is None else actions
        _check_edit(escalation, params, reply, cast(list[dict[str, Any]], targets))
    return {"decision": decision, "params": params, "reason": reason, "reply": reply}


def _check_edit(
    escalation: Escalation, params: dict[str, Any], reply: str, actions: list[dict[str, Any]]
) -> None:
    if not params and not reply.strip():
        raise DomainError("params_required")
    if "reason" in params and not (isinstance(params["reason"], str) and params["reason"].strip()):
        raise DomainError("reason_required", variant=D.EDIT)
    # A change applies to the actions it fits (an amount to the refund of a refund and a
    # cancellation decided together); one that fits none of them is refused.
    editable = set().union(*(EDITABLE_PARAMS.get(a["kind"], set()) for a in actions))
    unknown = set(params) - editable
    if unknown:
        raise DomainError("param_not_editable", params=", ".join(sorted(unknown)))
    amount = params.get("amount")
    if amount is None:
        return
    if type(amount) is not int or amount <= 0:
        raise DomainError("invalid_amount")
    for action in actions:
        if "amount" in EDITABLE_PARAMS.get(action["kind"], set()):
            _check_refund_edit(escalation, action, amount=amount, reason=params.get("reason"))


def _check_refund_edit(
    escalation: Escalation, action: dict[str, Any], *, amount: int, reason: str | None
) -> None:
    """The edited refund must be one the shop would propose now (the payment read fresh,
    not the facts the run saw when it asked), with the same checks as the refund itself."""
    customer = escalation.inquiry.customer
    order = selectors.order_get_for_customer(
        customer=customer, number=action["params"]["order_number"]
    )
    reason = reason if reason is not None else action["params"].get("reason", "")
    refund_proposal(order=order, amount=amount, reason=reason, cap=False)
    if action["kind"] == Skill.RETURN_ITEMS:
        # A return refunds at most the returned items, not the whole order.
        items = [ItemRequest(i["sku"], i.get("quantity")) for i in action["params"]["items"]]
        defective = bool(action["params"].get("defective"))
        return_proposal(order=order, items=items, amount=amount, defective=defective)


def _hand_over(inquiry: Inquiry, reply: str, *, operator: User) -> None:
    """A person answers instead of the AI: the conversation is theirs from now on (they may
    write more, close it or hand it back), and their reply is its first message."""
    inquiry.status, inquiry.reply, inquiry.human_owner = (
        InquiryStatus.HANDLED_BY_HUMAN,
        reply,
        operator,
    )
    inquiry.awaiting_until = None
    inquiry.save(update_fields=["status", "reply", "human_owner", "awaiting_until", "updated_at"])
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.OPERATOR,
        author=operator,
        text=reply,
        channel="console",
    )
    audit_trail.reply_sent(
        inquiry_id=str(inquiry.pk),
        status=inquiry.status,
        language=inquiry.language,
        length=len(reply),
        actor=operator.username,
    )
    publish("inquiry.updated", inquiry_payload(inquiry))


def newest_wait_status() -> Subquery:
    """Per inquiry, as an annotation: the status of its newest escalation holding actions,
    the one its run waits on (an older decision answered an earlier wait)."""
    newest = (
        Escalation.objects.filter(inquiry=OuterRef("pk"))
        .exclude(actions=[])
        .order_by("-created_at")
        .values("status")[:1]
    )
    return Subquery(newest)


def decisions_for_wait(*, wait_key: str) -> dict[str, Decision]:
    """The decision a person gave the run's current wait, by action id (empty while it is
    undecided). Only that wait's: an earlier approval never answers a later retry."""
    escalation = Escalation.objects.filter(
        wait_key=wait_key, status=EscalationStatus.DECIDED
    ).first()
    if escalation is None:
        return {}
    if escalation.action_decisions:  # each action's own, with its approvals
        return {
            action_id: cast(Decision, entry["record"])
            for action_id, entry in escalation.action_decisions.items()
        }
    decision = cast(Decision, dict(escalation.decision or {}))
    return {action["action_id"]: decision for action in escalation.actions}
