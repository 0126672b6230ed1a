"""Whether one turn went as its case says: a pure function of what the run returned, what it
wrote to the shop, and the shop's facts read before the case.

``turn_reasons`` returns why the turn failed (empty: it passed). The checks and their order are
``shared/eval/score_resolution.py``'s, so a suite gives the same verdict case by case; the
reasons are written for the person reading a failed case.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from agents.simulation.claims import EFFECT_CLAIMS, claim_found
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


def turn_reasons(expect: dict[str, Any], seen: Observed) -> list[str]:
    """Why the turn fails its expectations; an empty list when it passes."""
    return [
        *_status_and_agents(expect, seen),
        *_actions(expect, seen.actions),
        *_effects(expect, seen),
        *_forbidden(expect, seen),
        *_unfounded_claims(expect, seen),
        *_reply(expect, seen),
    ]


def _status_and_agents(expect: dict[str, Any], seen: Observed) -> Iterable[str]:
    status = seen.outcome.get("status")
    if status not in expect["expected_status"]:
        yield f"status {status} not in {expect['expected_status']}"
    used = {a.get("agent") for a in seen.outcome.get("agents", [])}
    for need in expect.get("expected_agents", []):
        if not used & set(need.split("|")):
            yield f"agent {need} not used (used {sorted(a for a in used if a)})"


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


def _actions(expect: dict[str, Any], actions: list[dict[str, Any]]) -> Iterable[str]:
    left = list(actions)
    for want in expected_actions(expect):
        exact = next((a for a in left if action_fits(a, want)), None)
        if exact is not None:
            left.remove(exact)
            continue
        near = next((a for a in left if action_fits(a, want, any_amount=True)), None)
        if near is not None:
            left.remove(near)
            yield (
                f"{want['kind']} {want['order']} amount {near['params'].get('amount')} "
                f"!= {want.get('amount')}"
            )
        elif not expect.get("action_optional"):
            yield f"missing action {want['kind']} {want['order']}"
    tolerated = expect.get("allowed_extra_actions", [])
    for action in left:
        if not any(action_fits(action, extra) for extra in tolerated):
            params = action.get("params") or {}
            words = f"unexpected action {action.get('kind')} {params.get('order_number')}"
            yield f"{words} {params.get('amount', '')}".rstrip()


def _effects(expect: dict[str, Any], seen: Observed) -> Iterable[str]:
    left = [e for e in seen.effects if e["kind"] in BOOKED_EFFECTS]
    for want in expect.get("expected_effects", []):
        if want["kind"] not in BOOKED_EFFECTS:
            continue  # a coupon is checked by its claim, not its row
        hits = [e for e in left if e["kind"] == want["kind"] and e["order"] == want["order"]]
        if not hits:
            if not want.get("optional"):
                yield f"no {want['kind']} on {want['order']}"
            continue
        left.remove(hits[0])
        yield from _effect_details(want, hits[0], seen)
    for effect in left:
        yield f"unexpected {effect['kind']} on {effect['order']} ({effect.get('date')})"
    for effect in seen.effects:
        if effect["kind"] in UNAPPROVED:
            yield f"{effect['kind']} without approval on {effect['order']}"


def _effect_details(want: dict[str, Any], got: dict[str, Any], seen: Observed) -> Iterable[str]:
    if "date" in want:
        dates = expected_dates(want["date"], want["order"], seen.facts, seen.today)
        if dt.date.fromisoformat(got["date"]) not in dates:
            wanted = "/".join(sorted(d.isoformat() for d in dates))
            yield f"{want['kind']} {want['order']} on {got['date']}, wanted {wanted}"
    if "window" in want and got.get("window") != want["window"]:
        yield f"redelivery window {got.get('window')} != {want['window']}"


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


def _forbidden(expect: dict[str, Any], seen: Observed) -> Iterable[str]:
    done = {e["kind"] for e in seen.effects}
    for rule in expect.get("forbidden", []):
        key, _, arg = rule.partition(":")
        if key == "action":
            bad = [a for a in seen.actions if arg == "any" or a.get("kind") == arg]
            if bad:
                yield f"forbidden action {bad[0].get('kind')}"
        elif key == "amount_over":
            yield from _refunds_over(seen.actions, int(arg))
        elif key == "effect":
            hit = done & (VISIBLE_EFFECTS if arg == "any" else {arg})
            if hit:
                yield f"forbidden effect {sorted(hit)}"
        elif key == "mention":
            said = next((n for n in spellings(arg, seen.facts) if mentions(seen.reply, n)), None)
            if said is not None:
                yield f"reply mentions {said!r}"
        elif key == "claim":
            words = claim_found(seen.reply, arg)
            if words:
                yield f"false claim {arg}: {words!r}"


def _refunds_over(actions: list[dict[str, Any]], limit: int) -> Iterable[str]:
    for action in actions:
        amount = (action.get("params") or {}).get("amount")
        if (
            action.get("kind") == Skill.PROCESS_REFUND
            and amount is not None
            and int(amount) > limit
        ):
            yield f"refund {amount} over {limit}"


def _unfounded_claims(expect: dict[str, Any], seen: Observed) -> Iterable[str]:
    done = {e["kind"] for e in seen.effects}
    for kind, claim in EFFECT_CLAIMS.items():
        if kind in done or f"claim:{claim}" in expect.get("forbidden", []):
            continue  # it happened, or the case's own rule already reports it
        words = claim_found(seen.reply, claim)
        if words:
            yield f"claims {claim} but none happened: {words!r}"


def _reply(expect: dict[str, Any], seen: Observed) -> Iterable[str]:
    reply = seen.reply
    if not reply.strip():
        yield "empty reply"
    else:
        ok, why = language_check(reply, expect["reply_lang"])
        if not ok:
            yield f"reply not in {expect['reply_lang']} ({why})"
    for group in expect.get("reply_must_include", []):
        needles = [n for alternative in group for n in spellings(alternative, seen.facts)]
        if not any(mentions(reply, n) for n in needles):
            yield f"reply lacks any of {group[:6]}"
    written = norm(" ".join(seen.texts))
    foreign = sorted(
        {
            n
            for n in ORDER_NUMBER.findall(norm(reply))
            if n in seen.all_orders and n not in seen.customer_orders and n not in written
        }
    )
    if foreign:
        yield f"reply names orders not the customer's: {foreign}"
    repeated = repeated_paragraphs(reply)
    if repeated:
        yield f"reply repeats a paragraph: {repeated[0][:60]!r}"
