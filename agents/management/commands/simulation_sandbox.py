"""``simulation_sandbox SPEC.json``: the sandbox child ``simulate`` starts (not for people).

Runs the spec's cases under ``agents.simulation.sandbox.settings`` and writes one JSON event a
line to stdout, each after ``EVENT_PREFIX``, so the parent reads them among anything else.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.simulation.sandbox.child import sandbox_main
from agents.simulation.sandbox.process import EVENT_PREFIX


class Command(BaseCommand):
    help = "Internal: run a simulation spec in the sandbox (started by manage.py simulate)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("spec", help="JSON file: cases and k.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not getattr(settings, "NETSHOP_SANDBOX", False):
            raise CommandError("simulation_sandbox runs only under the sandbox's settings")
        spec = json.loads(Path(options["spec"]).read_text(encoding="utf-8"))

        def emit(event: dict[str, Any]) -> None:
            line = json.dumps(event, ensure_ascii=False, default=str)
            sys.stdout.write(f"{EVENT_PREFIX}{line}\n")
            sys.stdout.flush()

        sandbox_main(spec, emit)
