"""``train_router`` and ``evaluate_router``: retrain from a folder of examples, score on an
external file; bad input is refused with a clear message and writes nothing."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from agents.providers.offline.understanding.examples import EXAMPLES_DIR
from agents.providers.offline.understanding.router import RouterModel, read, shipped_model


def small_corpus(root: Path) -> Path:
    """A tenth of the real examples, in the layout the trainer reads: enough to route, and
    training time grows much faster than the examples do (the shipped model's own figures
    are checked in tests/agents/providers/offline/understanding/test_router.py)."""
    for language in ("ja", "en"):
        (root / language).mkdir(parents=True)
        for path in sorted((EXAMPLES_DIR / language).glob("*.jsonl")):
            lines = path.read_text(encoding="utf-8").splitlines()[::10]
            (root / language / path.name).write_text("\n".join(lines), encoding="utf-8")
    return root


def test_train_router_writes_a_model_that_routes_and_reports_cross_validation(
    tmp_path: Path,
) -> None:
    output = tmp_path / "model.json.gz"
    stdout = io.StringIO()

    call_command(
        "train_router",
        "--examples",
        str(small_corpus(tmp_path / "examples")),
        "--folds",
        "3",
        "--output",
        str(output),
        stdout=stdout,
    )

    report = stdout.getvalue()
    assert "3-fold cross-validation" in report
    assert "macro-F1" in report
    model = RouterModel.from_json(json.loads(gzip.decompress(output.read_bytes())))
    assert read("where is my parcel ORD-4002", model).agents == ["order", "shipping"]


def test_train_router_refuses_a_folder_without_examples(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="too few examples"):
        call_command("train_router", "--examples", str(tmp_path), "--output", str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()


def test_evaluate_router_scores_an_external_file_per_language(tmp_path: Path) -> None:
    check = tmp_path / "check.jsonl"
    rows = [
        {
            "text": "ORD-4002の荷物は今どこにありますか",
            "agents": ["order", "shipping"],
            "lang": "ja",
        },
        {"text": "What payment methods do you accept?", "agents": ["faq"], "lang": "en"},
    ]
    check.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    stdout = io.StringIO()

    call_command("evaluate_router", "--check", str(check), stdout=stdout)

    lines = stdout.getvalue().splitlines()
    assert [line.split()[:2] for line in lines] == [["all", "n=2"], ["en", "n=1"], ["ja", "n=1"]]
    assert all("macro-F1" in line and "exact" in line for line in lines)


def test_evaluate_router_names_the_line_an_external_file_gets_wrong(tmp_path: Path) -> None:
    check = tmp_path / "check.jsonl"
    check.write_text('{"text": "hi", "agents": ["faq"]}\n{"text": "no agents"}\n')

    with pytest.raises(CommandError, match=r"check.jsonl:2: needs 'text' and 'agents'"):
        call_command("evaluate_router", "--check", str(check))


def test_evaluate_router_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file"):
        call_command("evaluate_router", "--check", str(tmp_path / "absent.jsonl"))


def test_the_shipped_model_is_what_the_commands_read() -> None:
    assert shipped_model().meta["examples"] >= 6000
