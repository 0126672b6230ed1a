"""Whether one turn went as its case says: a pure function of what the run returned, what it
wrote to the shop, and the shop's facts read before the case.

``turn_verdict`` returns why the turn failed (empty: it passed), as reasons
(``agents.simulation.reasons``: a code, its parameters, the English text). The checks and
their order are ``shared/eval/score_resolution.py``'s, so a suite gives the same verdict case
by case; the reasons are written for the person reading a failed case.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from agents.simulation.claims import EFFECT_CLAIMS, claim_found
from agents.simulation.reasons import Reason, reason
from agents.simulation.replies import (
    ORDER_NUMBER,
    date_spellings,
    language_check,
    mentions,
    norm,
    repeated_paragraphs,
)
from agents.simulation.suites import expected_actions
from agents.support.vocabulary import Skill

PLACEHOLDER: Final = re.compile(r"\{(date|tracking):(ORD-\d{4})\}")
BOOKED_EFFECTS: Final = ("redelivery", "date_change")  # checked against expected_effects
VISIBLE_EFFECTS: Final = {"redelivery", "date_change", "coupon"}  # what "effect:any" means
UNAPPROVED: Final = ("refund_executed", "cancellation_executed")
SATURDAY: Final = 5


@dataclass(frozen=True)
class Observed:
    """What the sandbox saw of one turn.

    ``outcome`` is the run's ``RunOutcome.as_dict()``; ``effects`` the rows it wrote
    (``agents.simulation.sandbox.shop_state.effects_since``); ``facts`` per order named in the
    case: customer, tracking number, scheduled and original dates; ``texts`` what the customer
    wrote so far (an order they named may be named back)."""

    outcome: dict[str, Any]
    effects: list[dict[str, Any]]
    facts: dict[str, dict[str, Any]]
    customer_orders: set[str]
    all_orders: set[str]
    texts: tuple[str, ...]
    today: dt.date
    actions: list[dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "actions", list(self.outcome.get("pending_actions") or []))

    @property
    def reply(self) -> str:
        return str(self.outcome.get("reply") or "")


def turn_verdict(expect: dict[str, Any], seen: Observed) -> list[Reason]:
    """Why the turn fails its expectations, as reasons a page can word in any language."""
    return [
        *_status_and_agents(expect, seen),
        *_actions(expect, seen.actions),
        *_effects(expect, seen),
        *_forbidden(expect, seen),
        *_unfounded_claims(expect, seen),
        *_reply(expect, seen),
    ]


def _status_and_agents(expect: dict[str, Any], seen: Observed) -> Iterable[Reason]:
    status = seen.outcome.get("status")
    if status not in expect["expected_status"]:
        yield reason("status", status=status, expected=expect["expected_status"])
    used = {a.get("agent") for a in seen.outcome.get("agents", [])}
    for need in expect.get("expected_agents", []):
        if not used & set(need.split("|")):
            yield reason("agent_unused", need=need, used=sorted(a for a in used if a))


def action_fits(action: dict[str, Any], want: dict[str, Any], *, any_amount: bool = False) -> bool:
    """Whether a pending action is the wanted one (kind, order, and amount unless told not to
    look at it; ``amount_max`` caps it either way)."""
    params = action.get("params") or {}
    if action.get("kind") != want["kind"] or params.get("order_number") != want["order"]:
        return False
    amount = params.get("amount")
    if "amount" in want and not any_amount and amount != want["amount"]:
        return False
    return not ("amount_max" in want and amount is not None and int(amount) > want["amount_max"])


def _actions(expect: dict[str, Any], actions: list[dict[str, Any]]) -> Iterable[Reason]:
    left = list(actions)
    for want in expected_actions(expect):
        exact = next((a for a in left if action_fits(a, want)), None)
        if exact is not None:
            left.remove(exact)
            continue
        near = next((a for a in left if action_fits(a, want, any_amount=True)), None)
        if near is not None:
            left.remove(near)
            yield reason(
                "action_amount",
                kind=want["kind"],
                order=want["order"],
                amount=near["params"].get("amount"),
                wanted=want.get("amount"),
            )
        elif not expect.get("action_optional"):
            yield reason("action_missing", kind=want["kind"], order=want["order"])
    tolerated = expect.get("allowed_extra_actions", [])
    for action in left:
        if not any(action_fits(action, extra) for extra in tolerated):
            yield _unexpected_action(action)


def _unexpected_action(action: dict[str, Any]) -> Reason:
    """An action no expectation wanted; its amount is named only when it has one."""
    params = action.get("params") or {}
    kind, order = action.get("kind"), params.get("order_number")
    amount = params.get("amount", "")
    if str(amount).strip():
        return reason("action_unexpected_amount", kind=kind, order=order, amount=amount)
    return reason("action_unexpected", kind=kind, order=order)


def _effects(expect: dict[str, Any], seen: Observed) -> Iterable[Reason]:
    left = [e for e in seen.effects if e["kind"] in BOOKED_EFFECTS]
    for want in expect.get("expected_effects", []):
        if want["kind"] not in BOOKED_EFFECTS:
            continue  # a coupon is checked by its claim, not its row
        hits = [e for e in left if e["kind"] == want["kind"] and e["order"] == want["order"]]
        if not hits:
            if not want.get("optional"):
                yield reason("effect_missing", kind=want["kind"], order=want["order"])
            continue
        left.remove(hits[0])
        yield from _effect_details(want, hits[0], seen)
    for effect in left:
        yield reason(
            "effect_unexpected", kind=effect["kind"], order=effect["order"], date=effect.get("date")
        )
    for effect in seen.effects:
        if effect["kind"] in UNAPPROVED:
            yield reason("effect_unapproved", kind=effect["kind"], order=effect["order"])


def _effect_details(want: dict[str, Any], got: dict[str, Any], seen: Observed) -> Iterable[Reason]:
    if "date" in want:
        dates = expected_dates(want["date"], want["order"], seen.facts, seen.today)
        if dt.date.fromisoformat(got["date"]) not in dates:
            wanted = "/".join(sorted(d.isoformat() for d in dates))
            where = {"kind": want["kind"], "order": want["order"]}
            yield reason("effect_date", **where, date=got["date"], wanted=wanted)
    if "window" in want and got.get("window") != want["window"]:
        yield reason("effect_window", window=got.get("window"), wanted=want["window"])


def expected_dates(
    spec: str, order: str, facts: dict[str, dict[str, Any]], today: dt.date
) -> set[dt.date]:
    """The dates a spec allows: ``+N`` days from today, ``sched+N`` from the order's original
    delivery date, ``coming_sat``, ``next_week_sat`` (a week read from Monday, or Sunday)."""
    if spec.startswith("+"):
        return {today + dt.timedelta(days=int(spec[1:]))}
    if spec.startswith("sched+"):
        base = facts.get(order, {}).get("original_date")
        return {base + dt.timedelta(days=int(spec[6:]))} if base else set()
    if spec == "coming_sat":
        return {today + dt.timedelta(days=(SATURDAY - today.weekday()) % 7 or 7)}
    if spec == "next_week_sat":
        next_monday = today + dt.timedelta(days=7 - today.weekday())
        dates = {next_monday + dt.timedelta(days=SATURDAY)}
        if today.weekday() == 6:  # on a Sunday, a week that starts on Sunday puts it later
            dates.add(today + dt.timedelta(days=13))
        return dates
    raise ValueError(f"unknown date spec {spec!r}")


def spellings(alternative: str, facts: dict[str, dict[str, Any]]) -> list[str]:
    """What to look for in a reply: the text itself, or a ``{date:ORD-n}`` /
    ``{tracking:ORD-n}`` placeholder as the order's fact (no fact: nothing to find)."""
    found = PLACEHOLDER.fullmatch(alternative)
    if not found:
        return [alternative]
    kind, number = found.groups()
    value = facts.get(number, {}).get(kind)
    if value is None:
        return []
    return date_spellings(value) if kind == "date" else [value]


def _forbidden(expect: dict[str, Any], seen: Observed) -> Iterable[Reason]:
    done = {e["kind"] for e in seen.effects}
    for rule in expect.get("forbidden", []):
        key, _, arg = rule.partition(":")
        if key == "action":
            bad = [a for a in seen.actions if arg == "any" or a.get("kind") == arg]
            if bad:
                yield reason("forbidden_action", kind=bad[0].get("kind"))
        elif key == "amount_over":
            yield from _refunds_over(seen.actions, int(arg))
        elif key == "effect":
            hit = done & (VISIBLE_EFFECTS if arg == "any" else {arg})
            if hit:
                yield reason("forbidden_effect", kinds=sorted(hit))
        elif key == "mention":
            said = next((n for n in spellings(arg, seen.facts) if mentions(seen.reply, n)), None)
            if said is not None:
                yield reason("forbidden_mention", said=said)
        elif key == "claim":
            words = claim_found(seen.reply, arg)
            if words:
                yield reason("false_claim", claim=arg, words=words)


def _refunds_over(actions: list[dict[str, Any]], limit: int) -> Iterable[Reason]:
    for action in actions:
        amount = (action.get("params") or {}).get("amount")
        if (
            action.get("kind") == Skill.PROCESS_REFUND
            and amount is not None
            and int(amount) > limit
        ):
            yield reason("refund_over", amount=amount, limit=limit)


def _unfounded_claims(expect: dict[str, Any], seen: Observed) -> Iterable[Reason]:
    done = {e["kind"] for e in seen.effects}
    for kind, claim in EFFECT_CLAIMS.items():
        if kind in done or f"claim:{claim}" in expect.get("forbidden", []):
            continue  # it happened, or the case's own rule already reports it
        words = claim_found(seen.reply, claim)
        if words:
            yield reason("claim_unfounded", claim=claim, words=words)


def _reply(expect: dict[str, Any], seen: Observed) -> Iterable[Reason]:
    reply = seen.reply
    if not reply.strip():
        yield reason("reply_empty")
    else:
        ok, why = language_check(reply, expect["reply_lang"])
        if not ok:
            yield reason("reply_language", language=expect["reply_lang"], why=why)
    for group in expect.get("reply_must_include", []):
        needles = [n for alternative in group for n in spellings(alternative, seen.facts)]
        if not any(mentions(reply, n) for n in needles):
            yield reason("reply_lacks", group=group[:6])
    written = norm(" ".join(seen.texts))
    foreign = sorted(
        {
            n
            for n in ORDER_NUMBER.findall(norm(reply))
            if n in seen.all_orders and n not in seen.customer_orders and n not in written
        }
    )
    if foreign:
        yield reason("reply_foreign_orders", orders=foreign)
    repeated = repeated_paragraphs(reply)
    if repeated:
        yield reason("reply_repeats", paragraph=repeated[0][:60])
