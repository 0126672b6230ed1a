"""``manage.py seed_demo``: load or refresh the demo shop (idempotent)."""

from __future__ import annotations

import os
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from netshop.demo import DEFAULT_DEMO_PASSWORD, DEMO_PASSWORD_ENV, demo_password, seed_demo


class Command(BaseCommand):
    help = (
        "Load the demo shop: customers C0001 (ja) and C0002 (en) with their fixed orders, a "
        "generated shop, the FAQ and the demo logins. Safe to run again. Passwords come from "
        f"{DEMO_PASSWORD_ENV} (default '{DEFAULT_DEMO_PASSWORD}', for demos only)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset-passwords",
            action="store_true",
            help="Also set the password of demo logins that already exist.",
        )
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Undo support actions (refunds, cancellations, redeliveries, date changes) "
            "taken on demo orders and restore them to their demo state.",
        )
        parser.add_argument(
            "--with-open-escalations",
            action="store_true",
            help="Also run demo inquiries through the graph, so the console starts with open "
            "escalations of each kind (once: running it again adds none).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        report = seed_demo(
            password=demo_password(),
            reset_passwords=options["reset_passwords"],
            reset=options["reset"],
        )
        for label, counts in (("created", report.created), ("updated", report.updated)):
            if counts:
                summary = ", ".join(f"{count} {name}" for name, count in sorted(counts.items()))
                self.stdout.write(f"{label}: {summary}")
        if not (report.created or report.updated):
            self.stdout.write("demo data already up to date")
        for note in report.notes:
            self.stdout.write(note)
        if not os.environ.get(DEMO_PASSWORD_ENV):
            self.stdout.write(
                self.style.WARNING(
                    f"new demo logins use the demo-only password '{DEFAULT_DEMO_PASSWORD}'; "
                    f"set {DEMO_PASSWORD_ENV} to choose another"
                )
            )
        if options["with_open_escalations"]:
            # By name: the agents' command (netshop imports nothing from agents).
            call_command("seed_open_escalations", stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("demo data ready"))
