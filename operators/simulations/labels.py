"""The simulation pages' codes in the reader's words: a run's status and kind, and what each
recorded version is."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from agents.simulation.models import RunKind, RunStatus

RUN_STATUS_LABELS: dict[str, Promise] = {
    RunStatus.QUEUED: _("queued"),
    RunStatus.RUNNING: _("running"),
    RunStatus.PASSED: pgettext_lazy("simulation", "passed"),
    RunStatus.FAILED: pgettext_lazy("simulation", "failed"),
    RunStatus.ERROR: _("could not run"),
}

RUN_KIND_LABELS: dict[str, Promise] = {
    RunKind.SUITE: _("suite"),
    RunKind.REPLAY: _("replay"),
}

# ``agents.simulation.versions.versions_in_force``'s keys, in the order a manager reads them.
VERSION_LABELS: dict[str, Promise] = {
    "provider": _("Model provider"),
    "models": _("Models"),
    "base_url": _("Model server"),
    "prompt_digest": _("Prompt digest"),
    "router_digest": _("Router digest"),
    "policy_version": _("Policy version"),
    "articles_version": _("Article versions"),
}
