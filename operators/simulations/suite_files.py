"""A suite file as a manager uploads and edits it: every problem by line, and one case replaced.

``agents.simulation.suites.suite_parse`` stops at the first problem, as a command should; a
page lists them all, so a manager fixes the file in one go. Both read each case with the same
``case_parse``, so what this accepts is what a run accepts (``suite_store`` parses it again).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from django.utils.translation import gettext as _

from agents.simulation.models import SimulationSuite
from agents.simulation.suites import Case, SuiteError, case_parse, suite_parse

SUITE_LIMIT_BYTES: Final = 2 * 1024 * 1024
COMMENT_PREFIXES: Final = ("//", "#")


@dataclass(frozen=True)
class SuiteProblem:
    """What is wrong on one line of a suite file (line 0: the file as a whole)."""

    line: int
    message: str


def suite_problems(text: str) -> list[SuiteProblem]:
    """Every problem of a suite's text, line by line (empty: it can be stored and run)."""
    problems: list[SuiteProblem] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(COMMENT_PREFIXES):
            continue
        try:
            case = case_parse(json.loads(stripped), where=f"line {number}")
        except json.JSONDecodeError as error:
            problems.append(SuiteProblem(number, _("not JSON: %(e)s") % {"e": error.msg}))
            continue
        except SuiteError as error:
            problems.append(SuiteProblem(number, str(error)))
            continue
        if case.id in seen:
            message = _("the case id %(id)s is already used on line %(line)s")
            problems.append(SuiteProblem(number, message % {"id": case.id, "line": seen[case.id]}))
        seen.setdefault(case.id, number)
    if not seen and not problems:
        problems.append(SuiteProblem(0, _("The file has no cases.")))
    return problems


def suite_case(suite: SimulationSuite, case_id: str) -> Case | None:
    """The case of that id in the suite as stored, or None."""
    cases = suite_parse(suite.content, name=suite.name)
    return next((case for case in cases if case.id == case_id), None)


def case_text(case: Case) -> str:
    """The case's JSON as the suite keeps it, laid out for editing."""
    return json.dumps(case.source, ensure_ascii=False, indent=2)


def content_with_case(content: str, case_id: str, document: dict[str, Any]) -> str:
    """The suite's text with the line of case ``case_id`` replaced by ``document`` (one line,
    as the format wants); comments and the other lines are kept as they are."""
    lines = content.splitlines()
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith(COMMENT_PREFIXES):
            continue
        found = json.loads(stripped)
        if isinstance(found, dict) and found.get("id") == case_id:
            lines[index] = json.dumps(document, ensure_ascii=False)
            return "\n".join(lines) + "\n"
    raise KeyError(case_id)
