"""``recover_runs``: re-dispatch runs that no worker is advancing (also a beat task)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from agents.team.runs.recovery import runs_recover


class Command(BaseCommand):
    help = "Re-dispatch inquiries stuck queued, running, or decided but not resumed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stale-seconds",
            type=float,
            default=None,
            help="how long a run nobody holds must be unmoved (default: the settings' grace, "
            "or NETSHOP_RUN_STALE_S where leases cannot be seen)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seconds = options["stale_seconds"]
        ids = runs_recover(stale_after=None if seconds is None else timedelta(seconds=seconds))
        self.stdout.write(f"re-dispatched {len(ids)} run(s)")
        for inquiry_id in ids:
            self.stdout.write(f"  {inquiry_id}")
