"""``train_router``: learn the offline router from ``examples/`` and ship it.

manage.py train_router            cross-validate, choose the agent threshold, fit, write
manage.py train_router --folds 10
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.management.commands.evaluate_router import cross_validation_lines
from agents.providers.offline.understanding.examples import EXAMPLES_DIR, load_examples
from agents.providers.offline.understanding.router import MODEL_PATH, write_model
from agents.providers.offline.understanding.training import cross_validate, fit


class Command(BaseCommand):
    help = (
        "Train the offline router on agents/providers/offline/understanding/examples/ and write "
        "router_model.json.gz; prints the k-fold cross-validated scores it was chosen by."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--folds", type=int, default=5, help="Folds for cross-validation.")
        parser.add_argument(
            "--output", type=Path, default=MODEL_PATH, help="Where to write the model."
        )
        parser.add_argument(
            "--examples",
            type=Path,
            default=EXAMPLES_DIR,
            help="A folder of labelled examples, one subfolder per language (ja/, en/).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        examples = load_examples(options["examples"])
        if len(examples) < options["folds"] * 2:
            raise CommandError(f"{options['examples']}: too few examples to cross-validate")
        validation = cross_validate(examples, folds=options["folds"])
        for line in cross_validation_lines(validation):
            self.stdout.write(line)
        model = fit(
            examples,
            threshold=validation.threshold,
            meta={
                "cross_validation": {
                    "folds": validation.folds,
                    "macro_f1": {
                        language: round(score.macro_f1, 3)
                        for language, score in validation.by_language.items()
                    },
                },
            },
        )
        write_model(model, options["output"])
        self.stdout.write(
            f"wrote {options['output']} ({len(examples)} examples, "
            f"{len(model.weights)} features, threshold {model.agent_threshold})"
        )
