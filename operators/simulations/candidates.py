"""What a manager may run a simulation against from the console, and what an uploaded candidate
may not say.

Three sources: the configuration in force; a candidate kept with the deployment (a file in
``settings.NETSHOP_SIMULATION_CANDIDATES``), trusted as the deployment itself is; and a
candidate uploaded with the form, which may only choose among what the deployment already
trusts. ``manage.py simulate --candidate`` is run by whoever runs the server and reads any
file; a web form is not: an uploaded candidate could otherwise

- name an environment variable (``api_key_env``) whose value the sandbox sends as the bearer
  key to the model server: ``SECRET_KEY`` or the audit key, to a host of its choosing;
- point the sandbox at any host the server can reach (``base_url``): other hosts of the
  network, on the server's behalf;
- read files of the server (``router_model``, ``articles``).

So an upload chooses the provider, the models and the policy settings, and a model server only
among those the shop already uses (the one in force and the kept candidates'). Anything else
goes in the folder, through the deployment's review.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from django.conf import settings
from django.utils.translation import gettext as _

from agents.simulation.candidates import Candidate, CandidateError, candidate_load, candidate_parse

SUFFIXES: Final = (".json", ".toml")
UPLOAD_KEYS: Final = frozenset({"name", "provider", "model", "models", "base_url", "policy"})
UPLOAD_LIMIT_BYTES: Final = 64 * 1024


@dataclass(frozen=True)
class KeptCandidate:
    """A file of the candidates' folder: its candidate, or why it cannot be used."""

    file: str
    candidate: Candidate | None
    error: str = ""


def kept_candidates() -> list[KeptCandidate]:
    """The folder's candidates by file name (a missing folder: none)."""
    folder = Path(settings.NETSHOP_SIMULATION_CANDIDATES)
    if not folder.is_dir():
        return []
    kept = []
    for path in sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in SUFFIXES):
        try:
            kept.append(KeptCandidate(path.name, candidate_load(path)))
        except CandidateError as error:
            kept.append(KeptCandidate(path.name, None, str(error)))
    return kept


def kept_candidate(file: str) -> Candidate:
    """The kept candidate of that file name; only a name the folder lists (no path)."""
    for kept in kept_candidates():
        if kept.file == file:
            if kept.candidate is None:
                raise CandidateError(kept.error)
            return kept.candidate
    raise CandidateError(_("No kept candidate is named %(file)s.") % {"file": file})


def trusted_model_servers() -> set[str]:
    """The model servers the shop already uses: the one in force and the kept candidates'."""
    servers = {c.candidate.base_url for c in kept_candidates() if c.candidate}
    servers.add(settings.OPENAI_BASE_URL)
    return {server for server in servers if server}


def uploaded_candidate(text: str, *, filename: str) -> Candidate:
    """The candidate of an uploaded file, within what an upload may say (module docstring)."""
    document = _document(text, filename)
    refused = set(document) - UPLOAD_KEYS
    if refused:
        raise CandidateError(
            _(
                "An uploaded candidate may not set %(keys)s: keep such a candidate in the "
                "candidates folder of the deployment."
            )
            % {"keys": ", ".join(sorted(refused))}
        )
    base_url = str(document.get("base_url") or "")
    if base_url and base_url not in trusted_model_servers():
        raise CandidateError(
            _(
                "An uploaded candidate may only use a model server the shop already uses (the "
                "one in force or a kept candidate's), not %(url)s."
            )
            % {"url": base_url}
        )
    # No key names a file or a variable, so nothing is read relative to ``base``.
    return candidate_parse(document, base=Path(), default_name=Path(filename).stem)


def _document(text: str, filename: str) -> dict[str, Any]:
    try:
        document = tomllib.loads(text) if filename.endswith(".toml") else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
        message = _("The candidate is not valid JSON or TOML: %(e)s") % {"e": error}
        raise CandidateError(message) from error
    if not isinstance(document, dict):
        raise CandidateError(_("A candidate is an object of settings."))
    return document
