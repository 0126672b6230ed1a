"""``prune_checkpoints --days N``: the checkpoint tables have no retention of their own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.team.runs.recovery import checkpoints_prune


class Command(BaseCommand):
    help = "Delete the graph checkpoints of inquiries finished more than N days ago."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=30)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["days"] < 0:
            raise CommandError("--days must be zero or more.")
        count = checkpoints_prune(older_than=timedelta(days=options["days"]))
        self.stdout.write(f"pruned the checkpoints of {count} finished inquiry(ies)")
