"""The tool turn of a specialist's loop: every tool call answered under the escalation policy.

The policy (SPEC section 4) lives here so that no specialist has to remember it:

* retryable tools (reads, and writes guarded by an idempotency key) are retried with back-off
  on carrier or gateway faults, then their fallback is tried;
* approval-gated tools (refund, cancellation) only *prepare* the action: the loop stops with
  the tool call open and the envelope asks for approval. They are never retried;
* tools with a side effect (a coupon, a redelivery, a date change) are held, not run, when
  the supervisor flagged the inquiry as trying to instruct the system: a person decides;
* a shop rule refusing something is an answer, not a failure: the model is told and goes on;
* asking the customer or referring to a person ends the turn: what the model called after
  it is answered, not run (nothing is done on a guess);
* every tool call gets its tool message, whatever happened (unknown tool, bad arguments, ...).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from langchain_core.messages import AnyMessage, ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import ValidationError

from agents.support.shapes import HELD, PendingAction
from agents.team.run_context import run_context
from agents.team.specialists.asking import ENDING_TOOLS
from agents.team.specialists.retries import invoke_retrying
from agents.team.specialists.spec import ApprovalRequired, Specialist
from agents.team.specialists.state import SpecialistState
from netshop.errors import DomainError, ExternalServiceError

logger = logging.getLogger(__name__)

# Marks a call whose arguments were not JSON, so that it is answered like any other.
INVALID_ARGUMENTS = "__invalid_arguments__"


def _tool_message(
    call: ToolCall, payload: dict[str, Any], *, status: str = "success"
) -> ToolMessage:
    return ToolMessage(
        content=json.dumps(payload, ensure_ascii=False, default=str),
        tool_call_id=call["id"] or "",
        name=call["name"],
        status="error" if status == "error" else "success",
    )


class ToolTurn:
    """Runs the tool calls of one model turn under the escalation policy."""

    def __init__(self, specialist: Specialist, config: RunnableConfig) -> None:
        self.specialist = specialist
        self.config = config
        self.messages: list[AnyMessage] = []
        self.results: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.pending_action: PendingAction | None = None
        self.asked = False

    def run(self, calls: list[ToolCall]) -> SpecialistState:
        for call in calls:
            if self.pending_action is not None:
                # One approval at a time: later calls of this turn are answered, not run.
                self._answer(call, {"skipped": "waiting for approval of an earlier action"})
                continue
            if self.asked:
                self._answer(call, {"skipped": "waiting for the customer's answer"})
                continue
            self._run_one(call)
            self.asked = call["name"] in ENDING_TOOLS and call["name"] in self.results
        return {
            "messages": self.messages,
            "results": self.results,
            "errors": self.errors,
            "pending_action": self.pending_action,
            "answered": self._answered_directly(calls),
            "asked": self.asked,
        }

    def _answered_directly(self, calls: list[ToolCall]) -> bool:
        direct = self.specialist.direct_tools
        if not calls or any(call["name"] not in direct for call in calls) or self.errors:
            return False
        return all("refused" not in self.results.get(call["name"], {}) for call in calls)

    def _answer(self, call: ToolCall, payload: dict[str, Any], *, status: str = "success") -> None:
        self.messages.append(_tool_message(call, payload, status=status))

    def _run_one(self, call: ToolCall) -> None:
        tool = self.specialist.tool(call["name"])
        if call["args"].get(INVALID_ARGUMENTS):
            self._fail(call, "invalid_arguments", "the arguments were not valid JSON")
            return
        if tool is None:
            self._fail(call, "unknown_tool", f"{call['name']} is not a tool of this agent")
            return
        if call["name"] in self.specialist.approval_required:
            self._prepare(call, tool)
            return
        if (
            call["name"] in self.specialist.side_effects
            and run_context(self.config).injection_suspected
        ):
            self._hold(call)
            return
        self._invoke_with_retries(call, tool)

    def _hold(self, call: ToolCall) -> None:
        """Answer a side effect of a flagged inquiry without running it: a person decides."""
        held = {HELD: "a member of staff checks this request first", "params": call["args"]}
        self.results[call["name"]] = held
        self._answer(call, held)

    def _prepare(self, call: ToolCall, tool: BaseTool) -> None:
        try:
            tool.invoke(call["args"], self.config)
        except ApprovalRequired as signal:
            # The call stays open: the operator's decision closes it with its tool message.
            self.pending_action = {
                **signal.action,
                "tool_call_id": call["id"],
                "tool": call["name"],
            }
            return
        except DomainError as refusal:
            self._refused(call, refusal)
            return
        except (ValidationError, ValueError, TypeError) as exc:
            self._fail(call, "invalid_arguments", str(exc))
            return
        except Exception as exc:  # a gated action is never retried: hand it to a person
            logger.exception("approval-gated tool %s failed", call["name"])
            self._fail(call, "action_preparation_failed", type(exc).__name__)
            return
        self._fail(call, "not_gated", "the action did not ask for approval")

    def _invoke_with_retries(self, call: ToolCall, tool: BaseTool) -> None:
        try:
            result = invoke_retrying(tool, call["args"], self.config)
        except ExternalServiceError as exc:
            self._fall_back(call, exc)
        except DomainError as refusal:
            self._refused(call, refusal)
        except (ValidationError, ValueError, TypeError) as exc:
            self._fail(call, "invalid_arguments", str(exc))
        else:
            self._succeeded(call, result)

    def _fall_back(self, call: ToolCall, error: ExternalServiceError) -> None:
        fallback = self.specialist.fallbacks.get(call["name"])
        code = f"{error.service}_{error.kind}"
        if fallback is not None:
            try:
                result = fallback(call["args"], self.config)
            except (DomainError, ExternalServiceError):
                result = None
            if result is not None:
                self.errors.append(
                    {"agent": self.specialist.agent, "code": code, "recovered": True}
                )
                self._succeeded(call, {**result, "fallback": True, "fallback_reason": code})
                return
        self._fail(call, code, error.message)

    def _succeeded(self, call: ToolCall, result: Any) -> None:
        self.results[call["name"]] = result
        self._answer(call, result if isinstance(result, dict) else {"result": result})

    def _refused(self, call: ToolCall, refusal: DomainError) -> None:
        refused = {"refused": refusal.code, "reason": refusal.message}
        if refusal.variant:  # which rule of the code refused: the reply words it apart
            refused["variant"] = refusal.variant
        self.results[call["name"]] = refused
        self._answer(call, refused)

    def _fail(self, call: ToolCall, code: str, message: str) -> None:
        self.errors.append({"agent": self.specialist.agent, "code": code, "message": message})
        self._answer(call, {"error": code, "message": message}, status="error")
