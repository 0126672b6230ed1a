"""The offline model's writing: one polite reply, in the customer's language, from the brief.

One module per intent's paragraphs (``order``, ``shipping``, ``address_change``,
``payment``, ``refund_status``, ``receipt``, ``faq``, ``actions`` for what waits for a person
or was decided, ``order_items`` for returns, exchanges and item changes), ``refusals`` for
why the shop said no, ``questions`` for the questions the run asks. Every word is the
catalogue's (``agents.support.catalogue``).

The brief is what ``agents.team.graph.supervisor.reply_brief`` builds. The reply says only what the
brief supports: a greeting, one paragraph per thing the customer asked about, what is waiting
for a person or was decided, what could not be checked, and a closing line. Pure: no
database, no network, no clock (``today`` comes from the brief).
"""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import AGENT, word
from agents.providers.offline.writing import faq
from agents.providers.offline.writing.actions import action_paragraphs
from agents.providers.offline.writing.order import order_paragraphs
from agents.providers.offline.writing.payment import payment_paragraphs
from agents.providers.offline.writing.questions import handover_sentence
from agents.providers.offline.writing.reply import Reply, as_dict, as_list, said_once
from agents.providers.offline.writing.shipping import shipping_paragraphs
from agents.support import catalogue


def write_reply(brief: dict[str, Any]) -> str:
    """The customer's reply to ``brief`` (see ``agents.team.graph.supervisor.reply_brief``)."""
    reply = Reply.from_brief(brief)
    answers = _answers(brief)
    body = [
        *shipping_paragraphs(reply, answers.get("shipping")),
        *payment_paragraphs(reply, answers.get("payment")),
        *faq.faq_paragraphs(reply, answers, brief),
        *action_paragraphs(reply, brief),
    ]
    body = [*order_paragraphs(reply, answers.get("order"), quiet=bool(body)), *body]
    if reply.needs_order_number:
        body.append(reply.say("ask_order_number"))
    body += _not_checked(reply, as_list(brief.get("not_checked")))
    body += _escalation(reply, as_dict(brief.get("escalation")))
    if not body:
        body.append(_ask_details(reply))
    return "\n\n".join([reply.say("greeting"), *said_once(body), reply.say("closing")])


def _ask_details(reply: Reply) -> str:
    """Nothing to say yet: ask what they need, never for the order number they gave."""
    if len(reply.named_orders) == 1:
        [number] = reply.named_orders
        return reply.say("ask_details_named", order_ref=fmt.order_ref(reply.lang, number))
    return reply.say("ask_details")


def _answers(brief: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each answering agent's tool results; failed agents are left to "not checked"."""
    answers: dict[str, dict[str, Any]] = {}
    for agent, envelope in as_dict(brief.get("results")).items():
        envelope = as_dict(envelope)
        if envelope.get("status") in ("success", "escalate"):
            data = as_dict(envelope.get("data"))
            answers[agent] = {k: v for k, v in data.items() if k != "pending_action"}
    return answers


def _not_checked(reply: Reply, agents: list[Any]) -> list[str]:
    known = [agent for agent in agents if catalogue.has(reply.lang, f"{AGENT}.{agent}")]
    labels = [word(AGENT, reply.lang, agent) for agent in known]
    if not labels:
        return []
    reply.follow_up_promised = True
    return [reply.say("not_checked", labels=fmt.join(reply.lang, labels))]


def _escalation(reply: Reply, escalation: dict[str, Any]) -> list[str]:
    kind = escalation.get("kind")
    reason = handover_sentence(reply.lang, escalation)  # a person follows up, and why
    if reason:
        reply.follow_up_promised = True
        return [reason]
    if kind == "customer_request":
        reply.follow_up_promised = True
        return [reply.say("handover")]
    if kind in ("failure", "follow_up") and not reply.follow_up_promised:
        reply.follow_up_promised = True
        return [reply.say("follow_up")]
    return []
