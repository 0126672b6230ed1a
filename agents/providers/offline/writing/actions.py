"""Gated actions (refunds, cancellations, returns, exchanges, item changes): waiting for a
person, or what the person decided.

A pending action is never described as done: the customer hears that a staff member is
reviewing it. Once decided, the outcome is reported as the action result states it.
"""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing import order_items
from agents.providers.offline.writing.refusals import refusal_sentence
from agents.providers.offline.writing.reply import Reply, as_dict, as_list
from agents.support import catalogue
from agents.support.catalogue import Language
from agents.support.vocabulary import OperatorDecision, Skill


def action_paragraphs(reply: Reply, brief: dict[str, Any]) -> list[str]:
    pending = [_pending(reply, as_dict(a)) for a in as_list(brief.get("pending_actions"))]
    done = [_decided(reply, as_dict(r)) for r in as_list(brief.get("action_results"))]
    return [paragraph for paragraph in [*pending, *done] if paragraph]


def _pending(reply: Reply, action: dict[str, Any]) -> str:
    params = as_dict(action.get("params"))
    order_ref = fmt.order_ref(reply.lang, params.get("order_number"))
    reply.follow_up_promised = True
    if action.get("kind") == Skill.CANCEL_ORDER:
        return reply.say("pending_cancel", order_ref=order_ref)
    if action.get("kind") in order_items.ITEM_KINDS:
        return order_items.pending(reply, action, order_ref)
    if action.get("kind") != Skill.PROCESS_REFUND:
        return reply.say("follow_up")
    amount = fmt.yen(reply.lang, params.get("amount"))
    if not amount:
        return reply.say("pending_refund_open", order_ref=order_ref)
    sentences = [reply.say("pending_refund", order_ref=order_ref, amount=amount)]
    if action.get("capped"):
        sentences.append(reply.say("pending_capped", amount=amount))
    return reply.join(sentences)


def _decided(reply: Reply, result: dict[str, Any]) -> str:
    params = as_dict(result.get("params"))
    # A result recorded before declined ones carried their parameters names no order: the
    # one order the brief names is the one decided.
    order_ref = fmt.order_ref(reply.lang, params.get("order_number") or reply.known_order)
    target = _target(reply, str(result.get("kind") or ""), order_ref)
    outcome = result.get("outcome")
    if outcome == "executed":
        return _executed(reply, result, order_ref)
    if outcome == "declined":
        return _declined(reply, result, target)
    if outcome == "refused":
        code = str(result.get("code") or "")
        explanation = refusal_sentence(reply, code, result, tool=str(result.get("kind") or ""))
        return reply.join([reply.say("refused_at_execution", target=target), explanation])
    reply.follow_up_promised = True
    return reply.say("action_failed", target=target)


def _target(reply: Reply, kind: str, order_ref: str) -> str:
    """The action as the object of a sentence ("the refund for order ORD-1003")."""
    if catalogue.has(reply.lang, f"action.{kind}"):
        return catalogue.say(reply.lang, f"action.{kind}", order_ref=order_ref)
    return catalogue.say(reply.lang, "fallback.tool")


def _executed(reply: Reply, result: dict[str, Any], order_ref: str) -> str:
    if result.get("kind") in order_items.ITEM_KINDS:
        return order_items.executed(reply, result, order_ref)
    if result.get("kind") == Skill.CANCEL_ORDER:
        sentences = [reply.say("cancel_done", order_ref=order_ref)]
        if result.get("authorization_released"):
            sentences.append(reply.say("authorization_released"))
        return reply.join(sentences)
    amount = fmt.yen(
        reply.lang, result.get("refund_amount") or as_dict(result.get("params")).get("amount")
    )
    if not amount:
        return reply.say("refund_done_open", order_ref=order_ref)
    return reply.say("refund_done", order_ref=order_ref, amount=amount)


def _declined(reply: Reply, result: dict[str, Any], target: str) -> str:
    if result.get("decision") == OperatorDecision.TAKE_OVER:
        reply.follow_up_promised = True
        return reply.say("taken_over", target=target)
    sentences = [reply.say("declined", target=target)]
    reason = str(result.get("reason") or "").strip()
    # The operator's words, quoted as written, in whatever language: the operator was
    # warned before sending a reason in another language than the customer's.
    if reason:
        sentences.append(reply.say("declined_reason", reason=_quoted(reply.lang, reason)))
    return reply.join(sentences)


def _quoted(lang: Language, words: str) -> str:
    """The operator's words in quotation marks; an English quotation ends with a stop."""
    if lang == "en" and not words.endswith((".", "!", "?", "。", "！", "？")):
        words += "."
    return catalogue.say(lang, "reply.quoted_reason", words=words)
