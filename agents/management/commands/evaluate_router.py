"""``evaluate_router``: how well the offline router routes, on data it was not trained on.

manage.py evaluate_router                         k-fold cross-validation on examples/
manage.py evaluate_router --check inquiries.jsonl the shipped model on an external file

An external file has one JSON object per line with "text", "agents" and optionally "lang";
it is only read, never learned from.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.providers.offline.understanding import classify_text
from agents.providers.offline.understanding.examples import load_examples
from agents.providers.offline.understanding.scoring import RoutingScore, routing_score
from agents.providers.offline.understanding.training import CrossValidation, cross_validate


def score_line(name: str, score: RoutingScore) -> str:
    agents = "  ".join(f"{agent} {f1:.3f}" for agent, f1 in score.per_agent.items())
    return (
        f"{name:<8} n={score.count:<5} macro-F1 {score.macro_f1:.3f}  exact {score.exact:.3f}"
        f"  ({agents})"
    )


def cross_validation_lines(validation: CrossValidation) -> list[str]:
    lines = [f"{validation.folds}-fold cross-validation, agent threshold {validation.threshold}"]
    lines += [score_line(lang, score) for lang, score in validation.by_language.items()]
    lines.append(score_line("all", validation.overall))
    lines.append(f"main intent accuracy {validation.intent_accuracy:.3f}")
    return lines


def check_scores(path: Path) -> dict[str, RoutingScore]:
    """The shipped classifier's scores on an external file, overall and per language."""
    rows: list[tuple[str, list[str], list[str]]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            gold = list(record["agents"])
            text = str(record["text"])
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise CommandError(f"{path}:{number}: needs 'text' and 'agents' ({error})") from error
        predicted: list[str] = list(classify_text(text).agents)
        rows.append((str(record.get("lang") or "all"), gold, predicted))
    scores = {"all": routing_score([g for _, g, _ in rows], [p for _, _, p in rows])}
    for language in sorted({lang for lang, _, _ in rows} - {"all"}):
        chosen = [(g, p) for lang, g, p in rows if lang == language]
        scores[language] = routing_score([g for g, _ in chosen], [p for _, p in chosen])
    return scores


class Command(BaseCommand):
    help = (
        "Report the offline router's macro-F1 per language: k-fold cross-validated on its "
        "examples, or the shipped model on an external file (--check)."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--folds", type=int, default=5)
        parser.add_argument("--check", type=Path, help="An external JSONL file to score.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            if not options["check"].is_file():
                raise CommandError(f"{options['check']}: no such file")
            for name, score in check_scores(options["check"]).items():
                self.stdout.write(score_line(name, score))
            return
        for line in cross_validation_lines(cross_validate(load_examples(), folds=options["folds"])):
            self.stdout.write(line)
