"""``manage.py articles export FILE`` / ``manage.py articles import FILE``: the shop's help
articles as a file (format: ``netshop.knowledge.files``); ``-`` is standard output or input."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from netshop.errors import DomainError
from netshop.knowledge.files import articles_export_text, articles_import_text


class Command(BaseCommand):
    help = (
        "Export the help articles (their live text, both languages) to a JSON file, or import "
        "one: changed texts are published as new versions, the same file twice changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["export", "import"])
        parser.add_argument("file", help="The file's path; - for standard output or input.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "export":
            self._export(options["file"])
        else:
            self._import(options["file"])

    def _export(self, file: str) -> None:
        text = articles_export_text()
        if file == "-":
            self.stdout.write(text, ending="")
        else:
            Path(file).write_text(text, encoding="utf-8")

    def _import(self, file: str) -> None:
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        try:
            report = articles_import_text(text)
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"created {len(report.created)} article(s), published {len(report.published)} "
            f"version(s), {report.unchanged} unchanged"
        )
        for line in report.published:
            self.stdout.write(f"  published {line}")
