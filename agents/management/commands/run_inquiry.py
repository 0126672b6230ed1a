"""``run_inquiry --customer C0001 "text"``: one inquiry through the graph, printed as JSON."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.runs import inquiry_create, inquiry_run
from netshop.errors import DomainError
from netshop.selectors import customer_get


class Command(BaseCommand):
    help = "Run one inquiry through the support graph in this process and print the result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("text", help="What the customer wrote.")
        parser.add_argument("--customer", required=True, help="Customer code, e.g. C0001.")
        parser.add_argument("--channel", default="cli")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            customer = customer_get(code=options["customer"])
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        try:
            inquiry = inquiry_create(
                customer=customer,
                text=options["text"].strip(),
                channel=options["channel"],
                start=False,
            )
        except DomainError as exc:  # a text that shows nothing, say
            raise CommandError(exc.message) from exc
        outcome = inquiry_run(inquiry=inquiry)
        self.stdout.write(json.dumps(outcome.as_dict(), ensure_ascii=False, indent=2, default=str))
