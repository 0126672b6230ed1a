"""The grounds of an AI answer: how the turn read the message, the records it read, and a
check of its own reply against both.

Pure functions over JSON-shaped state (the classification, the plan, the specialists'
envelopes), so the check runs the same on a live run, in a test and on a stored turn. Kept
cheap on purpose (a few regexes over the reply and set lookups): it runs on every answer.

The self-check's rules:

- every request answered: each request the reading found, that a specialist owns, has a plan
  step that was not skipped and an envelope that is no error (a shop rule's refusal such as
  ``order_not_cancellable`` comes back as a tool result and is an answer; ``max_turns`` is not);
- every stated fact traceable: each order number, tracking number and yen amount written in
  the reply appears in what the turn's specialists read (their tool results).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

ORDER_NUMBER = re.compile(r"\bORD-\d+\b")
TRACKING_NUMBER = re.compile(r"(?<![\d-])\d{4}-\d{4}-\d{4}(?![\d-])")
# "¥3,980", "¥ 550", "3,980円", "550 円": the two ways a reply writes yen.
YEN = re.compile(r"[¥￥]\s?(\d[\d,，]{0,15})|(\d[\d,，]{0,15})\s?円")

# What a prepared action keeps of the model's own words: not a record the reply may quote
# (a model that asked for ¥50,000 on a ¥20,000 order did not read ¥50,000 anywhere).
MODEL_WRITTEN = frozenset({"requested_amount", "reason"})

# Smaller whole numbers in a record are counts (quantities, attempts), not yen: a reply's
# "¥1" is never traceable to them.
SMALLEST_YEN = 10

ProblemKind = Literal["unanswered", "order", "tracking", "amount"]

# Each specialist's intents by its name (``agents.team.graph.planner.INTENT_OF_AGENT``); keyed
# by ``Any`` because that mapping's keys are the contract's ``AgentName`` literals.
Owners = Mapping[Any, Collection[str]]


class ReadingDict(TypedDict):
    """How the turn read the message: its intents (the main one first), the confidence, the
    language and whether it looked like instructions to the system."""

    intents: list[str]
    confidence: float | None
    language: str
    injection_suspected: bool
    complaint: bool


class FaqRecord(TypedDict):
    """A help article the turn read: the article, the version and its title at the time."""

    id: Any
    question: str
    """The version's title (named ``question`` since the FAQ entries grounds first named)."""
    quoted: bool
    """Whether the reply carries the article's text (the ones read but not used are not)."""
    article: NotRequired[str]
    """The article's key; absent from grounds written before help articles (issue 27)."""
    version: NotRequired[int]
    """The version number used; absent from grounds written before help articles."""


class RecordsDict(TypedDict):
    orders: list[str]
    tracking: list[str]
    faq: list[FaqRecord]


class ProblemDict(TypedDict):
    kind: ProblemKind
    subject: str


class CheckDict(TypedDict):
    passed: bool
    problems: list[ProblemDict]


class GroundsDict(TypedDict):
    """What a stored AI message keeps of its grounds (``Message.grounds``)."""

    reading: ReadingDict
    records: RecordsDict
    check: CheckDict


@dataclass(frozen=True)
class ArticleRead:
    """A help article's version a specialist read (a search's hit)."""

    id: Any
    article: str
    version: int
    title: str
    body: str


@dataclass(frozen=True)
class Records:
    """What the turn's specialists read: the facts a reply may state."""

    orders: frozenset[str]
    tracking: frozenset[str]
    amounts: frozenset[int]
    faq: tuple[ArticleRead, ...]  # in the order read


@dataclass(frozen=True)
class SelfCheck:
    """The verdict on a reply: passed, or failed with what is wrong."""

    problems: tuple[ProblemDict, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.problems

    def as_dict(self) -> CheckDict:
        return {"passed": self.passed, "problems": list(self.problems)}


def records_read(results: Iterable[Any]) -> Records:
    """The order numbers, tracking numbers, amounts and FAQ entries in ``results`` (the
    envelopes' data, the prepared actions): anything a tool returned, however nested."""
    orders: set[str] = set()
    tracking: set[str] = set()
    amounts: set[int] = set()
    faq: dict[Any, ArticleRead] = {}
    stack: list[Any] = list(results)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if _is_article(value):
                faq.setdefault(value["id"], _article_read(value))
            quantity, price = value.get("quantity"), value.get("unit_price")
            if isinstance(quantity, int) and isinstance(price, int):  # a line's total too
                amounts.add(quantity * price)
            stack.extend(v for k, v in value.items() if k not in MODEL_WRITTEN)
        elif isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, str):
            orders.update(ORDER_NUMBER.findall(value))
            tracking.update(TRACKING_NUMBER.findall(value))
            amounts.update(yen_amounts(value))
        elif _is_int(value) and value >= SMALLEST_YEN:
            amounts.add(value)
    return Records(
        frozenset(orders), frozenset(tracking), frozenset(amounts), tuple(faq.values())[::-1]
    )


def _is_article(value: dict[str, Any]) -> bool:
    """A search hit (``netshop.knowledge.retrieval.ArticleHit.as_dict``)."""
    return all(k in value for k in ("id", "article", "version", "title", "body"))


def _article_read(value: dict[str, Any]) -> ArticleRead:
    return ArticleRead(
        id=value["id"],
        article=str(value["article"]),
        version=int(value["version"]),
        title=str(value["title"]),
        body=str(value["body"]),
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def yen_amounts(text: str) -> list[int]:
    """The yen amounts written in ``text`` ("¥3,980", "3,980円")."""
    return [int(re.sub(r"[,，]", "", a or b)) for a, b in YEN.findall(text)]


def unanswered_requests(
    *,
    requests: Iterable[str],
    plan: Iterable[Mapping[str, Any]],
    envelopes: Mapping[str, Mapping[str, Any]],
    owners: Owners,
) -> list[str]:
    """The requests (intents) no specialist answered. ``owners``: each specialist's intents
    (a request no specialist owns, such as asking for a person, is the supervisor's)."""
    steps = {str(step.get("agent")): step for step in plan}
    missing = []
    for intent in dict.fromkeys(requests):
        agents = [agent for agent, intents in owners.items() if intent in intents]
        if agents and not any(_answered(steps.get(a), envelopes.get(a)) for a in agents):
            missing.append(intent)
    return missing


def _answered(step: Mapping[str, Any] | None, envelope: Mapping[str, Any] | None) -> bool:
    """A step answered its request when it ran and its envelope is no error: a shop rule's
    refusal ("it has shipped") is a tool result in a successful envelope, while an error
    envelope is always a machine's failure (max turns, a crash, invalid arguments)."""
    if step is None or envelope is None or step.get("status") == "skipped":
        return False
    return envelope.get("status") != "error"


def untraceable_facts(reply: str, records: Records) -> list[ProblemDict]:
    """The order numbers, tracking numbers and yen amounts ``reply`` states that no record
    read holds, each once, in the order written."""
    problems: list[ProblemDict] = []
    for number in dict.fromkeys(ORDER_NUMBER.findall(reply)):
        if number not in records.orders:
            problems.append({"kind": "order", "subject": number})
    for number in dict.fromkeys(TRACKING_NUMBER.findall(reply)):
        if number not in records.tracking:
            problems.append({"kind": "tracking", "subject": number})
    for match in dict.fromkeys(m.group(0) for m in YEN.finditer(reply)):
        if yen_amounts(match)[0] not in records.amounts:
            problems.append({"kind": "amount", "subject": match})
    return problems


def self_check(
    *,
    reply: str,
    requests: Iterable[str],
    plan: Iterable[Mapping[str, Any]],
    envelopes: Mapping[str, Mapping[str, Any]],
    records: Records,
    owners: Owners,
    asking: bool = False,
) -> SelfCheck:
    """Check ``reply``: every request answered (not when the reply is a question to the
    customer: it asks for what the answer lacks) and every stated fact in ``records``."""
    problems: list[ProblemDict] = []
    if not asking:
        unanswered = unanswered_requests(
            requests=requests, plan=plan, envelopes=envelopes, owners=owners
        )
        problems += [{"kind": "unanswered", "subject": intent} for intent in unanswered]
    problems += untraceable_facts(reply, records)
    return SelfCheck(tuple(problems))


def reading_of(classification: Mapping[str, Any]) -> ReadingDict:
    """The reading a classification records, its main intent first."""
    return {
        "intents": list(
            dict.fromkeys(
                [classification.get("intent") or "", *classification.get("secondary_intents", [])]
            )
        ),
        "confidence": classification.get("confidence"),
        "language": classification.get("language") or "",
        "injection_suspected": bool(classification.get("injection_suspected")),
        "complaint": bool(classification.get("complaint")),
    }


def requests_of(classification: Mapping[str, Any]) -> list[str]:
    """The intents of the requests the reading found; its intents when it listed none."""
    requests = [r.get("intent") for r in classification.get("requests") or []]
    return [r for r in requests if r] or reading_of(classification)["intents"]


def turn_grounds(
    state: Mapping[str, Any],
    *,
    reply: str,
    owners: Owners,
    asking: bool = False,
) -> GroundsDict:
    """The grounds of ``reply``, one of the turn's messages, from the graph's ``state``."""
    classification = state.get("classification") or {}
    envelopes = state.get("envelopes") or {}
    records = records_read(
        [
            *(e.get("data") for e in envelopes.values()),
            *(state.get("pending_actions") or []),
            *(state.get("action_results") or []),
        ]
    )
    check = self_check(
        reply=reply,
        requests=requests_of(classification),
        plan=state.get("plan") or [],
        envelopes=envelopes,
        records=records,
        owners=owners,
        asking=asking,
    )
    return {
        "reading": reading_of(classification),
        "records": {
            "orders": sorted(records.orders),
            "tracking": sorted(records.tracking),
            "faq": [
                {
                    "id": read.id,
                    "question": read.title,
                    "quoted": bool(read.body) and read.body in reply,
                    "article": read.article,
                    "version": read.version,
                }
                for read in records.faq
            ],
        },
        "check": check.as_dict(),
    }
