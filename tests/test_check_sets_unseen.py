"""The external check sets stay unseen: none of their sentences is in the product or its tests.

``shared/data/inquiries_check.jsonl`` (routing) and ``shared/data/resolution_check.jsonl``
(end to end) were written independently of the product so that scoring on them measures how
it meets customers nobody here wrote for. A sentence of theirs copied into an example, a rule,
a prompt or a test would turn that measure into a memory test. They live beside the
repository, not in it (``../shared/data``, or ``NETSHOP_CHECK_DATA``); where they are absent
there is nothing to compare and the test is skipped.

Given every tracked text file, when a check sentence of 48 characters or more is compared by
its first and its last 48 characters (spacing and case aside), then no file holds either.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK_DATA = Path(os.environ.get("NETSHOP_CHECK_DATA", ROOT.parent / "shared" / "data"))
CHECK_SETS = ("inquiries_check.jsonl", "resolution_check.jsonl")
# The development set handed to us with them: its sentences are ours to use, and a check
# sentence may begin like one of them.
DEV_SET = "inquiries_dev.jsonl"
WINDOW = 48  # shorter runs ("please change the delivery address of ...") are what anyone writes
SCANNED_SUFFIXES = frozenset({".py", ".json", ".jsonl", ".txt", ".html", ".md", ".po", ".toml"})


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _sentences(name: str) -> list[str]:
    path = CHECK_DATA / name
    lines = path.read_text().splitlines() if path.exists() else []
    return [_normalised(json.loads(line)["text"]) for line in lines if line.strip()]


def _check_windows() -> dict[str, str]:
    """Each check sentence's first and last ``WINDOW`` characters, to the sentence's place;
    runs the development set also has are left out."""
    development = "\n".join(_sentences(DEV_SET))
    windows: dict[str, str] = {}
    for name in CHECK_SETS:
        for number, text in enumerate(_sentences(name), start=1):
            for window in (text[:WINDOW], text[-WINDOW:]):
                if len(text) >= WINDOW and window not in development:
                    windows[window] = f"{name}:{number}"
    return windows


def _tracked_texts() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / path for path in listed.split("\0") if Path(path).suffix in SCANNED_SUFFIXES]


@pytest.mark.skipif(
    not all((CHECK_DATA / name).exists() for name in CHECK_SETS),
    reason="the external check sets are not beside this checkout",
)
def test_no_check_sentence_is_in_the_repository() -> None:
    windows = _check_windows()
    pattern = re.compile("|".join(re.escape(window) for window in windows))
    found = []
    for path in _tracked_texts():
        for match in pattern.finditer(_normalised(path.read_text(errors="replace"))):
            found.append(f"{path.relative_to(ROOT)} holds {windows[match.group()]}")

    assert found == []


# Our own measuring sets (the retrieval questions, the simulation suites): a question of
# theirs is short, so a shorter run copied from a check sentence is already a copy.
OWN_SETS = ("bench/retrieval_cases.jsonl", "bench/retrieval_holdout.jsonl", "simulations")
OWN_SET_WINDOW = 30


def _tracked_under(prefixes: tuple[str, ...]) -> list[Path]:
    """The tracked JSON Lines files under ``prefixes`` (folders or files)."""
    return [
        path
        for path in _tracked_texts()
        if str(path.relative_to(ROOT)).startswith(prefixes) and path.suffix == ".jsonl"
    ]


def _copied_runs(paths: list[Path], window: int) -> list[str]:
    """Where ``paths`` hold a run of ``window`` characters of a check sentence (runs the
    development set also has left out)."""
    development = "\n".join(_sentences(DEV_SET))
    runs = {
        text[start : start + window]: f"{name}:{number}"
        for name in CHECK_SETS
        for number, text in enumerate(_sentences(name), start=1)
        for start in range(max(len(text) - window + 1, 0))
    }
    runs = {run: where for run, where in runs.items() if run not in development}
    return [
        f"{path.relative_to(ROOT)} holds {where}"
        for path in paths
        for text in [_normalised(path.read_text(errors="replace"))]
        for run, where in runs.items()
        if run in text
    ]


@pytest.mark.skipif(
    not all((CHECK_DATA / name).exists() for name in CHECK_SETS),
    reason="the external check sets are not beside this checkout",
)
def test_our_own_measuring_sets_copy_no_run_of_a_check_sentence() -> None:
    measuring_sets = _tracked_under(OWN_SETS)

    assert measuring_sets, "the measuring sets moved: point OWN_SETS at them"
    assert _copied_runs(measuring_sets, OWN_SET_WINDOW) == []


# What the router learns from and the benchmark it is judged on: an example that shares a
# long run with a check sentence teaches the router that sentence, and a benchmark case that
# does measures it twice. A run of 40 characters is a clause, past the phrases anyone writes.
ROUTER_SETS = (
    "agents/providers/offline/understanding/examples/",
    "bench/understanding_cases.jsonl",
)
ROUTER_SET_WINDOW = 40


@pytest.mark.skipif(
    not all((CHECK_DATA / name).exists() for name in CHECK_SETS),
    reason="the external check sets are not beside this checkout",
)
def test_the_routers_examples_and_benchmark_copy_no_run_of_a_check_sentence() -> None:
    router_sets = _tracked_under(ROUTER_SETS)

    assert len(router_sets) > 1, "the router's sets moved: point ROUTER_SETS at them"
    assert _copied_runs(router_sets, ROUTER_SET_WINDOW) == []
