"""The simulation pages' codes in the reader's words: a run's status (the model's own labels),
and what each recorded version is."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from agents.simulation.models import RunStatus
from operators.labels import Label

RUN_STATUS_LABELS: Mapping[str, Label] = dict(RunStatus.choices)

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
