"""``classify``: JSON lines in, one classification per line out. Pure: no database.

echo '{"text": "ORD-1002はどこ？"}' | manage.py classify
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandParser

from agents.providers.offline.understanding import classify_text


class Command(BaseCommand):
    help = (
        "Read JSON lines with a 'text' field from stdin and write one JSON line per input: "
        "agents, intent, secondary_intents, entities, requests (each with its own orders), "
        "language, confidence, injection_suspected."
    )
    requires_system_checks: list[str] = []
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--today",
            type=dt.date.fromisoformat,
            default=None,
            help="Resolve relative dates against this ISO date instead of today in Japan.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stream: TextIO = options.get("stdin") or sys.stdin
        today: dt.date | None = options["today"]
        for line in stream:
            if line.strip():
                result = classify_line(line, today=today)
                self.stdout.write(json.dumps(result, ensure_ascii=False))


def classify_line(line: str, *, today: dt.date | None) -> dict[str, Any]:
    """One input line's answer: the classification, or ``{"error": ...}``."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"invalid JSON: {error.msg}"}
    text = record.get("text") if isinstance(record, dict) else None
    if not isinstance(text, str) or not text.strip():
        return {"error": 'each line must be a JSON object with a non-empty "text" string'}
    return classify_text(text, today=today).model_dump(mode="json")
