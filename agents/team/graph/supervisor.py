"""The supervisor's nodes: classify, plan and execute (fan-out), review, ask, merge, finalize.

Nodes are thin: the rules they apply live in ``planner``, ``policy`` and ``handoffs``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langgraph.types import Send

from agents import providers
from agents.contract.blocks import ClassifyRequest, writer_request
from agents.contract.schemas import Classification
from agents.models import EscalationKind, InquiryStatus
from agents.support.text import language_evident
from agents.team import model_calls
from agents.team.graph import confidence, escalation_policy, planner, questions
from agents.team.graph.lanes import lane_payload
from agents.team.graph.state import InquiryState, message_id, turn_start
from agents.team.prompts import CLASSIFY_PROMPT, QUESTION_PROMPT, WRITER_PROMPT

logger = logging.getLogger(__name__)


def classify(state: InquiryState) -> dict[str, Any]:
    """Supervisor: read the inquiry into a ``Classification`` (structured output), with the
    conversation so far and the question last asked, which the new message may answer."""
    question = open_question(state)
    messages = [SystemMessage(CLASSIFY_PROMPT), HumanMessage(classify_prompt(state))]
    try:
        result = model_calls.invoke(
            providers.structured(providers.chat_model("supervisor"), Classification), messages
        )
        classification = Classification.model_validate(result)
    except Exception as exc:  # the supervisor failing goes to a person at once (SPEC 4.3)
        logger.warning("classification failed: %s", type(exc).__name__)
        return turn_start(state, _escalate_now(type(exc).__name__) | {"question": None})
    language: str = classification.language
    if not language_evident(state["text"]):  # "ORD-1002?" says nothing of the language
        language = state.get("language") or state.get("customer_language") or language
    request = _request(state["text"], question, classification)
    update: dict[str, Any] = {
        "classification": classification.model_dump(),
        "language": language,
        "request": request,
        # answered (or passed over) by this message; ``ask`` may ask anew, or at once when
        # the reading is too unsure to act on
        "question": _asked_first(
            classification, request, state.get("turn", 1), later=bool(earlier_messages(state))
        ),
    }
    if not state.get("message_ids"):  # a run started from a bare text (tests, old callers)
        update["messages"] = [HumanMessage(state["text"], id=f"{state['inquiry_id']}:inquiry")]
    if classification.injection_suspected:  # nobody works on it: a person reads it first
        update |= {"plan": [], "plan_history": [{"kind": "plan", "steps": []}]}
    elif update["question"] is None:  # the team works on it now: planned in this same step
        update |= planned(classification)
    return turn_start(state, update)


def _asked_first(
    classification: Classification, request: str, turn: int, *, later: bool
) -> dict[str, Any] | None:
    question = confidence.question_before_planning(classification, later_turn=later)
    if question is None:
        return None
    return {**question, "request": request, "intent": classification.intent, "turn": turn}


def open_question(state: InquiryState) -> dict[str, Any] | None:
    """The question the new message may answer: none once the conversation moved past it
    (it lapsed and was closed, or a person wrote since; ``question_open`` from the intake)."""
    return state.get("question") if state.get("question_open", True) else None


# How much of the conversation the classifier reads: the latest messages, each cut short.
CONVERSATION_MESSAGES = 12
CONVERSATION_CHARS = 600


def classify_prompt(state: InquiryState) -> str:
    """Today, the conversation before this turn, the open question, then the new text."""
    return ClassifyRequest(
        inquiry=state["text"],
        today=timezone.localdate(),
        conversation=earlier_messages(state),
        question=open_question(state),
    ).render()


def earlier_messages(state: InquiryState) -> list[dict[str, str]]:
    """The thread before this turn's messages, as who wrote what (customer, shop, operator)."""
    new = set(state.get("message_ids") or [])
    earlier = [m for m in state.get("messages", []) if str(m.id) not in new]
    return [
        {"from": _author(m), "text": str(m.content)[:CONVERSATION_CHARS]}
        for m in earlier[-CONVERSATION_MESSAGES:]
        if m.content
    ]


def _author(message: AnyMessage) -> str:
    if isinstance(message, HumanMessage):
        return "customer"
    return "operator" if getattr(message, "name", None) == "operator" else "shop"


def _request(text: str, question: dict[str, Any] | None, classification: Classification) -> str:
    """What the specialists work on: an answer to the question is read with the request it
    answers ("2" alone says nothing of a parcel that has not arrived)."""
    if question and question.get("request") and classification.intent == question.get("intent"):
        return f"{question['request']}\n{text}"
    return text


def planned(classification: Classification) -> dict[str, Any]:
    """Planner: number the steps, one agent each, and start the ones nothing waits on. The
    classifier plans in its own step: a step of the graph of its own would only cost one."""
    plan = planner.make_plan(classification)
    return {"plan": planner.start_ready(plan), "plan_history": [{"kind": "plan", "steps": plan}]}


def execute(state: InquiryState) -> dict[str, Any]:
    """Executor: settle the steps that came back, re-plan blocked ones, start the ready ones."""
    envelopes = state.get("envelopes", {})
    plan, revisions = planner.settle(planner.adopt_lane_runs(state["plan"], envelopes), envelopes)
    plan = planner.start_ready(plan)
    return {"plan": plan, "plan_history": revisions}


def route_steps(state: InquiryState) -> list[Send] | str:
    """Fan out every running step in parallel, each in its lane (with the steps waiting on it
    alone); when none is left, review the results."""
    running = planner.in_flight(state["plan"])
    if not running:
        return "review"
    return [Send("specialist", lane_payload(state, step)) for step in running]


def review(state: InquiryState) -> dict[str, Any]:
    """Apply the escalation policy to the specialists' envelopes. A question a specialist
    stopped to ask wins over anything prepared on this turn: nothing is done on a guess."""
    classification = state["classification"]
    envelopes = state.get("envelopes", {})
    plan = list(state.get("plan", []))
    referral = questions.first_referral(envelopes, plan)
    question = questions.first_question(envelopes, plan)
    if question is not None and referral is None:
        asked = {
            **question,
            "request": state.get("request") or state["text"],
            "intent": classification["intent"],
            "turn": state.get("turn", 1),
        }
        return {"pending_actions": [], "escalation": None, "question": asked}
    escalation = escalation_policy.assess(
        envelopes=envelopes,
        intent=classification["intent"],
        injection_suspected=classification.get("injection_suspected", False),
        plan=[dict(step) for step in plan],
        referral=referral,
    )
    return {
        "pending_actions": escalation_policy.pending_actions(envelopes),
        "escalation": escalation.as_dict() if escalation else None,
    }


def route_after_review(state: InquiryState) -> str:
    if state.get("question"):
        return "ask"
    return "acknowledge" if state.get("pending_actions") else "merge"


def ask(state: InquiryState) -> dict[str, Any]:
    """Supervisor: put the question to the customer in their language, and wait for them
    (the run ends; their answer starts the next turn on the same thread)."""
    question = dict(state.get("question") or {})
    brief = {
        "language": state.get("language", "ja"),
        "inquiry": state.get("request") or state["text"],
        **{k: question.get(k) for k in ("slot", "why", "options", "about")},
    }
    messages = [
        SystemMessage(QUESTION_PROMPT),
        HumanMessage(writer_request("ask", brief)),
    ]
    try:
        text = str(model_calls.invoke(providers.chat_model("writer"), messages).content).strip()
        if not text:
            raise ValueError("empty question")
    except Exception as exc:  # the supervisor failing goes to a person at once (SPEC 4.3)
        logger.warning("question writing failed: %s", type(exc).__name__)
        return _escalate_now(type(exc).__name__) | {"question": None}
    return {
        "reply": text,
        "messages": [AIMessage(text, id=message_id(state, "question"))],
        "question": {**question, "text": text},
        "status": InquiryStatus.AWAITING_CUSTOMER,
    }


def merge(state: InquiryState) -> dict[str, Any]:
    """Supervisor: write one reply in the customer's language from everything known, and
    settle the run's status with it (one step, so one checkpoint, for both). A reply the
    operator approved (shown before deciding, or written in an edit) is sent as it is."""
    try:
        text = merge_reply(state)
    except Exception as exc:  # the supervisor failing goes to a person at once (SPEC 4.3)
        logger.warning("reply writing failed: %s", type(exc).__name__)
        return _escalate_now(type(exc).__name__)
    reply = {"reply": text, "messages": [AIMessage(text, id=message_id(state, "reply"))]}
    return reply | finalize(state)


def acknowledge(state: InquiryState) -> dict[str, Any]:
    """Tell the customer their request is with a person while the run waits for approval."""
    try:
        text = _write(state)
    except Exception as exc:  # no acknowledgement is better than a failed run
        logger.warning("acknowledgement failed: %s", type(exc).__name__)
        return {}
    return {"reply": text, "messages": [AIMessage(text, id=message_id(state, "ack"))]}


def merge_reply(state: InquiryState) -> str:
    """The reply ``merge`` sends: the one a person approved, else the writer's. Public, so
    the decision preview shows the customer exactly this text before anything runs."""
    return state.get("operator_reply") or _write(state)


def _write(state: InquiryState) -> str:
    messages = [
        SystemMessage(WRITER_PROMPT),
        HumanMessage(writer_request("brief", reply_brief(state))),
    ]
    return str(model_calls.invoke(providers.chat_model("writer"), messages).content).strip()


def finalize(state: InquiryState) -> dict[str, Any]:
    """Settle the run's status from its escalation and the operators' decisions."""
    escalation = state.get("escalation")
    if state.get("status") == InquiryStatus.HANDLED_BY_HUMAN:
        return {}
    if escalation and escalation["kind"] != EscalationKind.APPROVAL:
        return {"status": InquiryStatus.ESCALATED}
    return {"status": InquiryStatus.RESOLVED}


def route_after_classify(state: InquiryState) -> list[Send] | str:
    """A failed supervisor goes to a person, a question to the customer; otherwise the plan's
    first wave fans out."""
    if state.get("status") == InquiryStatus.ESCALATED:
        return "finalize"
    return "ask" if state.get("question") else route_steps(state)


def reply_brief(state: InquiryState) -> dict[str, Any]:
    """Everything the writer may say, and nothing else (no internal ids, no other customers)."""
    classification = state["classification"]
    envelopes = state.get("envelopes", {})
    if questions.first_referral(envelopes, list(state.get("plan", []))):
        envelopes = {}  # a person follows up on what the records contradict: not "delivered"
    return {
        "language": state.get("language", "ja"),
        "today": timezone.localdate().isoformat(),
        "inquiry": state.get("request") or state["text"],
        "intent": classification["intent"],
        "secondary_intents": classification.get("secondary_intents", []),
        "results": {
            agent: _customer_safe(
                {k: env.get(k) for k in ("status", "data", "message", "error_code")}
            )
            for agent, env in envelopes.items()
        },
        "not_checked": escalation_policy.failed_agents(envelopes),
        "pending_actions": [
            {"kind": a["kind"], "params": a["params"], "capped": a.get("capped", False)}
            for a in state.get("pending_actions", [])
            if a["action_id"] not in state.get("decisions", {})
        ],
        "action_results": _customer_safe(state.get("action_results", [])),
        "escalation": state.get("escalation"),
    }


# Internal references a reply never needs: the writer (a real model too) does not see them.
INTERNAL_KEYS = frozenset(
    {
        "pending_action",
        "payment_reference",
        "booking_id",
        "gateway_refund_id",
        "action_id",
        "operator",
        "customer",
        "checks",
    }
)


def _customer_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _customer_safe(v) for k, v in value.items() if k not in INTERNAL_KEYS}
    if isinstance(value, list):
        return [_customer_safe(item) for item in value]
    return value


def _escalate_now(message: str) -> dict[str, Any]:
    escalation = escalation_policy.supervisor_failure(message)
    return {
        "status": InquiryStatus.ESCALATED,
        "escalation": escalation.as_dict(),
        "errors": [{"agent": "supervisor", "code": "supervisor_failure", "message": message}],
    }
