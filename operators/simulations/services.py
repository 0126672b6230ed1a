"""The console's writes on suites: an uploaded file and an edited case, stored only when every
line would run (``SuiteRefusedError`` lists what is wrong, by line, and nothing is stored)."""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from agents.simulation.models import SimulationSuite
from agents.simulation.services import suite_store
from agents.simulation.suites import SuiteError, case_parse
from operators.simulations.suite_files import SuiteProblem, content_with_case, suite_problems


class SuiteRefusedError(Exception):
    """A suite or case that was not stored, and every reason why."""

    def __init__(self, problems: list[SuiteProblem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def suite_upload(
    *, name: str, text: str, source: str, user: User, replace: bool = False
) -> SimulationSuite:
    """Store an uploaded suite under ``name``; an existing suite of that name is replaced only
    when the manager said so (its runs keep their results)."""
    problems = suite_problems(text)
    if not replace and SimulationSuite.objects.filter(name=name).exists():
        exists = _("A suite named %(name)s exists: choose another name, or replace it.")
        problems.insert(0, SuiteProblem(0, exists % {"name": name}))
    if problems:
        raise SuiteRefusedError(problems)
    return suite_store(name=name, content=text, source=source, user=user)


def suite_case_edit(
    *, suite: SimulationSuite, case_id: str, text: str, user: User
) -> SimulationSuite:
    """Replace one case of the suite by its edited JSON (a new version of the suite)."""
    try:
        document = json.loads(text)
        case_parse(document, where=_("the case"))
    except json.JSONDecodeError as error:
        message = _("not JSON: %(e)s (line %(line)s, column %(col)s)")
        raise SuiteRefusedError(
            [
                SuiteProblem(
                    error.lineno,
                    message % {"e": error.msg, "line": error.lineno, "col": error.colno},
                )
            ]
        ) from error
    except SuiteError as error:
        raise SuiteRefusedError([SuiteProblem(0, str(error))]) from error
    content = content_with_case(suite.content, case_id, document)
    problems = suite_problems(content)
    if problems:
        raise SuiteRefusedError(problems)
    return suite_store(name=suite.name, content=content, source=suite.source, user=user)
