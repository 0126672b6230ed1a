"""``manage.py seed_open_escalations``: the demo's open escalations, each kind (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from agents.demo import demo_escalations_open


class Command(BaseCommand):
    help = (
        "Run a few demo inquiries through the graph so that the console starts with open "
        "escalations of each kind (approvals, failure, follow-up, customer request, review). "
        "Needs the demo shop (seed_demo). Safe to run again: existing ones are kept."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        counts = demo_escalations_open()
        self.stdout.write(
            f"demo inquiries waiting for a person: {counts['created']} created, "
            f"{counts['existing']} already there"
        )
