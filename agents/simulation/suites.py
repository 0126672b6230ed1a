"""Suites: the file a shop writes its cases in, read into ``Case`` and ``Turn``.

A suite is JSON Lines: one case a line; blank lines and lines starting with ``//`` or ``#``
are skipped, so a suite can be commented and kept in a shop's repository. A case::

    {"id": "refund-broken-mug", "category": "refund", "customer": "C0002", "lang": "en",
     "turns": [{"text": "...", "expected_status": ["awaiting_approval"], ...}, ...]}

Each turn carries its expectations under the names ``shared/eval/score_resolution.py`` uses
(``TURN_EXPECTATIONS``), so a case of that scorer is a one-turn case as it stands: a case
with ``text`` and no ``turns`` is read as one turn whose expectations are its own fields.
What the keys mean is in ``docs/simulation.md``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

LANGUAGES: Final = ("ja", "en")
# A turn's expectations (all optional but ``expected_status``), as the scorer names them.
TURN_EXPECTATIONS: Final = (
    "expected_status",
    "expected_agents",
    "expected_action",
    "action_optional",
    "allowed_extra_actions",
    "expected_effects",
    "forbidden",
    "reply_must_include",
    "reply_lang",
)
CASE_KEYS: Final = ("id", "category", "customer", "lang", "turns", "text", "note")
FORBIDDEN_KINDS: Final = ("action", "amount_over", "effect", "mention", "claim")
EFFECT_KINDS: Final = ("redelivery", "date_change", "coupon")
DATE_SPEC: Final = re.compile(r"\+\d+|sched\+\d+|coming_sat|next_week_sat")


class SuiteError(ValueError):
    """A suite file that cannot be run, with where and why (``file:line: case id: ...``)."""


@dataclass(frozen=True)
class Turn:
    """One customer message and what must happen when the AI answers it."""

    text: str
    expect: dict[str, Any]

    @property
    def reply_lang(self) -> str:
        return str(self.expect["reply_lang"])


@dataclass(frozen=True)
class Case:
    """One conversation to simulate: the customer (a code of the sandbox's shop), its
    language, and its turns in order."""

    id: str
    category: str
    customer: str
    lang: str
    turns: tuple[Turn, ...]
    source: dict[str, Any] = field(default_factory=dict, compare=False)

    def as_json(self) -> dict[str, Any]:
        """The case in the suite's own (multi-turn) form."""
        return {
            "id": self.id,
            "category": self.category,
            "customer": self.customer,
            "lang": self.lang,
            "turns": [{"text": t.text, **t.expect} for t in self.turns],
        }


def suite_load(path: Path) -> list[Case]:
    """The cases of the suite file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read the suite ({exc.strerror})") from exc
    return suite_parse(text, name=str(path))


def suite_parse(text: str, *, name: str = "suite") -> list[Case]:
    """The cases of a suite's text; raises ``SuiteError`` naming the line and the case."""
    documents = _jsonl_documents(text, name)
    cases: list[Case] = []
    seen: set[str] = set()
    for where, document in documents:
        case = case_parse(document, where=where)
        if case.id in seen:
            raise SuiteError(f"{where}: case {case.id}: the id is used twice")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise SuiteError(f"{name}: no cases")
    return cases


def _jsonl_documents(text: str, name: str) -> list[tuple[str, Any]]:
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#")):
            continue
        try:
            documents.append((f"{name}:{number}", json.loads(stripped)))
        except json.JSONDecodeError as exc:
            raise SuiteError(f"{name}:{number}: not JSON ({exc.msg}, column {exc.colno})") from exc
    return documents


def case_parse(document: Any, *, where: str = "case") -> Case:
    """One case from its JSON object (multi-turn, or the scorer's one-turn form)."""
    if not isinstance(document, dict):
        raise SuiteError(f"{where}: a case is an object")
    case_id = document.get("id")
    if not isinstance(case_id, str) or not case_id.strip():
        raise SuiteError(f"{where}: the case has no id")
    where = f"{where}: case {case_id}"
    lang = document.get("lang")
    if lang not in LANGUAGES:
        raise SuiteError(f"{where}: lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    customer = document.get("customer")
    if not isinstance(customer, str) or not customer:
        raise SuiteError(f"{where}: customer (a customer code such as C0001) is missing")
    raw_turns = _raw_turns(document, where)
    turns = tuple(
        _turn(raw, lang=lang, where=f"{where}, turn {n}") for n, raw in enumerate(raw_turns, 1)
    )
    return Case(
        id=case_id,
        category=str(document.get("category") or "uncategorised"),
        customer=customer,
        lang=lang,
        turns=turns,
        source=document,
    )


def _raw_turns(document: dict[str, Any], where: str) -> list[Any]:
    if "turns" in document:
        turns = document["turns"]
        if not isinstance(turns, list) or not turns:
            raise SuiteError(f"{where}: turns must be a non-empty list")
        return turns
    if "text" not in document:
        raise SuiteError(f"{where}: a case needs turns (or, for one turn, text)")
    unknown = set(document) - set(CASE_KEYS) - set(TURN_EXPECTATIONS) - {"reply_lang"}
    if unknown:
        raise SuiteError(f"{where}: unknown keys {sorted(unknown)}")
    return [{k: v for k, v in document.items() if k == "text" or k in TURN_EXPECTATIONS}]


def _turn(raw: Any, *, lang: str, where: str) -> Turn:
    if not isinstance(raw, dict):
        raise SuiteError(f"{where}: a turn is an object")
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        raise SuiteError(f"{where}: the customer's text is missing")
    unknown = set(raw) - {"text"} - set(TURN_EXPECTATIONS)
    if unknown:
        raise SuiteError(f"{where}: unknown keys {sorted(unknown)}")
    expect = {k: v for k, v in raw.items() if k != "text"}
    expect.setdefault("reply_lang", lang)
    _check_expectations(expect, where)
    return Turn(text=text.strip(), expect=expect)


def _check_expectations(expect: dict[str, Any], where: str) -> None:
    status = expect.get("expected_status")
    if not (isinstance(status, list) and status and all(isinstance(s, str) for s in status)):
        raise SuiteError(f"{where}: expected_status must be a list of statuses")
    if expect["reply_lang"] not in LANGUAGES:
        raise SuiteError(f"{where}: reply_lang must be one of {', '.join(LANGUAGES)}")
    for action in _as_list(expect.get("expected_action")) + list(
        expect.get("allowed_extra_actions", [])
    ):
        if not (isinstance(action, dict) and "kind" in action and "order" in action):
            raise SuiteError(f"{where}: an action needs kind and order: {action!r}")
    for effect in expect.get("expected_effects", []):
        _check_effect(effect, where)
    for rule in expect.get("forbidden", []):
        if not isinstance(rule, str) or rule.partition(":")[0] not in FORBIDDEN_KINDS:
            raise SuiteError(f"{where}: forbidden rules start with {FORBIDDEN_KINDS}: {rule!r}")
    for group in expect.get("reply_must_include", []):
        if not (isinstance(group, list) and group and all(isinstance(a, str) for a in group)):
            raise SuiteError(f"{where}: reply_must_include is a list of lists of strings")


def _check_effect(effect: Any, where: str) -> None:
    if not (isinstance(effect, dict) and effect.get("kind") in EFFECT_KINDS):
        raise SuiteError(f"{where}: an effect's kind is one of {EFFECT_KINDS}: {effect!r}")
    if effect["kind"] != "coupon" and "order" not in effect:
        raise SuiteError(f"{where}: a {effect['kind']} effect names its order")
    if "date" in effect and not DATE_SPEC.fullmatch(str(effect["date"])):
        raise SuiteError(
            f"{where}: date {effect['date']!r} is not +N, sched+N, coming_sat or next_week_sat"
        )


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def expected_actions(expect: dict[str, Any]) -> list[dict[str, Any]]:
    """A turn's required actions as a list (the key takes null, one action, or a list)."""
    return _as_list(expect.get("expected_action"))
