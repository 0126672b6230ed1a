"""What "handled correctly" means for one end-to-end case, as plain functions (no database).

``bench.understanding`` runs a case and turns the run into an ``Observation``; ``failures``
compares it with the case's ``expect``. Kept apart from the runner so the rules can be read
(and unit-tested) on their own.

An ``expect`` holds any of:

- ``agents``: agents the supervisor must have routed to (a subset check);
- ``action``: ``null`` (nothing with a side effect may be proposed or done), one action or a
  list of them: ``{"kind": "process_refund" | [kinds], "order": "ORD-1003", "amount": 12800,
  "date": "+6" | "next:sat" | "nextweek:sat" | [dates], "window": "08-12"}``. The actions
  proposed (waiting for approval) and done must be exactly these, no more;
- ``asks``: the AI asked the customer a question (the conversation awaits the customer);
  ``ask_offers``: order numbers the question must offer;
- ``person``: handed to a person (escalated or handled by a human; an approval wait is not);
- ``reply_has`` / ``reply_lacks``: strings (in ``reply_has`` a list inside the list: any one
  of them; in ``reply_lacks`` ``re:PATTERN``: a regular expression);
  ``{due:ORD-1002}`` / ``{date:+6}`` expand to that date as the customer's language writes it;
- ``language``: the reply's language (default: the customer's);
- ``or``: a list of alternative expectations, each merged over the rest; one must hold.

Defaults a careful support person keeps without being told: no action, no question and no
hand-off unless the case says so; a reply in the customer's language (no Japanese text in an
English reply); no sentence said twice; no request for an order number the customer gave.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
PERSON_STATUSES = frozenset({"escalated", "handled_by_human"})
ORDER_NUMBER = re.compile(r"ORD-\d{4}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")
ASKS_FOR_NUMBER_JA = (
    "注文番号をお知らせ",
    "注文番号を添えて",
    "注文番号をご連絡",
    "注文番号を教えて",
)
ASKS_FOR_NUMBER_EN = re.compile(
    r"\b(send|tell|give|provide|include|let us know|share)\b[^.?!\n]{0,40}\border number",
    re.IGNORECASE,
)
ORDER_KEYS = ("order_number", "number", "order", "cause_order")
AMOUNT_KEYS = ("amount", "refund_amount", "requested_amount")


@dataclass
class Action:
    """One action the run proposed (waiting for approval) or carried out."""

    kind: str
    state: str  # "proposed" or "done"
    fields: Json = field(default_factory=dict)

    def order(self) -> str | None:
        return _first(self.fields, ORDER_KEYS)

    def label(self) -> str:
        shown = {k: v for k, v in self.fields.items() if k in (*ORDER_KEYS, *AMOUNT_KEYS, "value")}
        dates = {k: v for k, v in self.fields.items() if "date" in k or k.endswith("window")}
        return f"{self.kind}({self.state} {shown | dates})"


@dataclass
class Observation:
    """What a run came to, as the checks see it."""

    status: str
    language: str
    reply: str
    agents: list[str]
    intent: str
    actions: list[Action]
    today: dt.date
    due_dates: dict[str, dt.date]  # order number -> scheduled delivery date
    db_changes: dict[str, int] = field(default_factory=dict)  # model -> rows added
    plan: list[str] = field(default_factory=list)  # "agent:intent" per step, for reading

    @property
    def asks(self) -> bool:
        return self.status == "awaiting_customer"

    @property
    def person(self) -> bool:
        return self.status in PERSON_STATUSES


# --- the check ------------------------------------------------------------------------------


def failures(case: Mapping[str, Any], seen: Observation, *, customer_language: str) -> list[str]:
    """Why the run did not handle the case correctly; empty when it did."""
    expect = dict(case.get("expect") or {})
    alternatives = expect.pop("or", None) or [{}]
    best: list[str] | None = None
    for alternative in alternatives:
        found = _variant_failures({**expect, **alternative}, seen, case, customer_language)
        if not found:
            return []
        if best is None or len(found) < len(best):
            best = found
    return best or []


def _variant_failures(
    expect: Json, seen: Observation, case: Mapping[str, Any], customer_language: str
) -> list[str]:
    found: list[str] = []
    if seen.status == "failed":
        found.append("run failed")
    if not seen.reply.strip():
        found.append("empty reply")
    found += _agents(expect, seen)
    found += _actions(expect.get("action"), seen)
    found += _flag("asks", expect.get("asks", False), seen.asks, seen)
    found += _flag("person", expect.get("person", False), seen.person, seen)
    if expect.get("asks") and seen.asks:
        found += [
            f"question does not offer {o}"
            for o in expect.get("ask_offers", [])
            if o not in seen.reply
        ]
    language = expect.get("language") or customer_language
    found += _language(language, seen)
    found += _reply_has(expect.get("reply_has", []), seen, language)
    found += _reply_lacks(expect.get("reply_lacks", []), seen, language)
    found += _writer(str(case.get("text", "")), seen, language)
    return found


def _agents(expect: Json, seen: Observation) -> list[str]:
    missing = [a for a in expect.get("agents", []) if a not in seen.agents]
    return [f"routing: {missing} not among {seen.agents} (intent {seen.intent})"] if missing else []


def _flag(name: str, wanted: bool | None, actual: bool, seen: Observation) -> list[str]:
    if wanted is None or bool(wanted) == actual:
        return []
    verb = "did not" if wanted else "should not have"
    return [f"{verb} {'ask' if name == 'asks' else 'hand to a person'} (status {seen.status})"]


# --- actions ----------------------------------------------------------------------------------


def _actions(wanted: Any, seen: Observation) -> list[str]:
    expected = [] if wanted is None else wanted if isinstance(wanted, list) else [wanted]
    left = list(seen.actions)
    found: list[str] = []
    for spec in expected:
        match = next((a for a in left if not _action_mismatch(spec, a, seen)), None)
        if match is None:
            near = [a for a in left if a.kind in _as_list(spec["kind"])]
            why = _action_mismatch(spec, near[0], seen) if near else "none proposed or done"
            found.append(f"action {_spec_label(spec)} missing: {why}")
        else:
            left.remove(match)
    found += [f"unexpected action {a.label()}" for a in left]
    if not expected and not seen.actions and seen.db_changes:
        found.append(f"unexpected change in the shop's records: {seen.db_changes}")
    return found


def _action_mismatch(spec: Json, action: Action, seen: Observation) -> str:
    """Why ``action`` is not the one ``spec`` describes; empty when it is."""
    if action.kind not in _as_list(spec["kind"]):
        return f"kind {action.kind}"
    if "order" in spec and action.order() != spec["order"]:
        return f"order {action.order()} instead of {spec['order']}"
    if "amount" in spec:
        amount = _first(action.fields, AMOUNT_KEYS)
        if amount != spec["amount"]:
            return f"amount {amount} instead of {spec['amount']}"
    if "date" in spec:
        wanted = {resolve_date(d, seen).isoformat() for d in _as_list(spec["date"])}
        dates = {str(v) for k, v in action.fields.items() if "date" in k and k != "previous_date"}
        if not wanted & dates:
            return f"date {sorted(dates)} instead of {sorted(wanted)}"
    if "window" in spec and action.fields.get("slot_window") != spec["window"]:
        return f"window {action.fields.get('slot_window')} instead of {spec['window']}"
    return ""


def _spec_label(spec: Json) -> str:
    return "(" + ", ".join(f"{k}={v}" for k, v in spec.items()) + ")"


def flatten(value: Any, prefix: str = "") -> Json:
    """A nested result as one level of leaf keys (the last key wins on a clash)."""
    leaves: Json = {}
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if isinstance(inner, Mapping | list):
                leaves.update(flatten(inner, str(key)))
            else:
                leaves.setdefault(str(key), inner)
    elif isinstance(value, list):
        for inner in value:
            leaves.update(flatten(inner, prefix))
    return leaves


def _first(fields: Mapping[str, Any], keys: Iterable[str]) -> Any:
    return next((fields[k] for k in keys if fields.get(k) not in (None, "")), None)


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


# --- dates --------------------------------------------------------------------------------------


def resolve_date(expression: str, seen: Observation) -> dt.date:
    """``+N`` (days from today), ``due+N:ORD-1002``, ``next:sat`` (the first Saturday after
    today), ``nextweek:sat`` (Saturday of next week, weeks starting on Monday)."""
    if expression.startswith("+") or expression.startswith("-"):
        return seen.today + dt.timedelta(days=int(expression))
    if expression.startswith("due"):
        offset, order = expression[3:].split(":")
        return seen.due_dates[order] + dt.timedelta(days=int(offset or 0))
    kind, day = expression.split(":")
    weekday = WEEKDAYS[day]
    if kind == "next":
        return seen.today + dt.timedelta(days=(weekday - seen.today.weekday() - 1) % 7 + 1)
    if kind == "nextweek":
        monday = seen.today - dt.timedelta(days=seen.today.weekday()) + dt.timedelta(days=7)
        return monday + dt.timedelta(days=weekday)
    raise ValueError(f"unknown date expression {expression!r}")


def date_spellings(day: dt.date, language: str) -> list[str]:
    """How a reply may write ``day``."""
    if language == "ja":
        return [f"{day.month}月{day.day}日", day.isoformat(), f"{day.month}/{day.day}"]
    month = day.strftime("%B")
    return [
        f"{month} {day.day}",
        f"{month[:3]} {day.day}",
        f"{day.day} {month}",
        f"{day.day} {month[:3]}",
        day.isoformat(),
    ]


def expand(text: str, seen: Observation, language: str) -> list[str]:
    """A ``reply_has`` item with its ``{due:...}`` / ``{date:...}`` placeholder spelled out."""
    hit = re.fullmatch(r"\{(due|date):([^}]+)\}", text)
    if not hit:
        return [text]
    kind, argument = hit.groups()
    day = seen.due_dates[argument] if kind == "due" else resolve_date(argument, seen)
    return date_spellings(day, language)


# --- the reply ----------------------------------------------------------------------------------


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _contains(reply: str, needle: str) -> bool:
    return _normal(needle) in _normal(reply)


def _reply_has(items: list[Any], seen: Observation, language: str) -> list[str]:
    found = []
    for item in items:
        options = [o for text in _as_list(item) for o in expand(text, seen, language)]
        if not any(_contains(seen.reply, o) for o in options):
            found.append(f"reply lacks {options if len(options) > 1 else options[0]!r}")
    return found


def _reply_lacks(items: list[str], seen: Observation, language: str) -> list[str]:
    """``re:PATTERN`` items are regular expressions (on the NFKC, case-folded reply)."""
    found = []
    for item in items:
        if item.startswith("re:"):
            hit = re.search(item[3:], _normal(seen.reply))
            found += [f"reply has {hit.group(0)!r} ({item[3:]})"] if hit else []
            continue
        found += [
            f"reply has {o!r}" for o in expand(item, seen, language) if _contains(seen.reply, o)
        ]
    return found


def _language(language: str, seen: Observation) -> list[str]:
    found = []
    if seen.language != language:
        found.append(f"language {seen.language} instead of {language}")
    if language == "en" and JAPANESE.search(seen.reply):
        sample = "".join(JAPANESE.findall(seen.reply))[:20]
        found.append(f"writer: Japanese text in an English reply ({sample})")
    if language == "ja" and seen.reply and not KANA.search(seen.reply):
        found.append("writer: a Japanese customer got a reply without Japanese")
    return found


def sentences(reply: str) -> list[str]:
    parts = re.split(r"(?<=[。．！？!?])|(?<=\.)\s+|\n+", reply)
    return [p.strip() for p in parts if p and len(p.strip()) >= 8]


def _writer(text: str, seen: Observation, language: str) -> list[str]:
    found = []
    said = [_normal(s) for s in sentences(seen.reply)]
    repeated = sorted({s for s in said if said.count(s) > 1})
    if repeated:
        found.append(f"writer: sentence repeated: {repeated[0][:60]!r}")
    if ORDER_NUMBER.search(unicodedata.normalize("NFKC", text).upper()) and not seen.asks:
        asks_again = (
            any(p in seen.reply for p in ASKS_FOR_NUMBER_JA)
            if language == "ja"
            else bool(ASKS_FOR_NUMBER_EN.search(seen.reply))
        )
        if asks_again:
            found.append("writer: asks for the order number the customer gave")
    return found


# --- notes: worth reading, not a failure ------------------------------------------------------

FAQ_QUOTE = re.compile(r"About “[^”]+”:|「[^」]+」について")


def notes(case: Mapping[str, Any], seen: Observation) -> list[str]:
    """Things a reviewer should see that do not make the handling wrong: an FAQ entry quoted
    into a reply to a question that was not an FAQ question (padding), or an FAQ entry's
    title quoted verbatim (「パスワードを忘れました。」について)."""
    expect = case.get("expect") or {}
    faq_case = "faq" in expect.get("agents", []) or case.get("topic") in ("faq", "hard_negative")
    quoted = FAQ_QUOTE.findall(seen.reply)
    kind = "faq title quoted" if faq_case else "faq padding"
    return [f"{kind}: {q[:50]}" for q in quoted]
