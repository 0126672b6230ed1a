"""Retrieval quality: does the search find the help article that answers a question?

    PYTHONPATH=. .venv/bin/python -m bench.retrieval [--signals bm25|concepts|both] [--misses]

Each case of ``bench/retrieval_cases.jsonl`` is a customer's question (written for this bench,
in both languages, many of them paraphrases sharing no keyword with the article: marked
``"paraphrase": true``) and the key of the demo article that answers it. The demo's articles
(``netshop/demo/articles.json``) are indexed in memory exactly as published articles are
(``netshop.knowledge.retrieval.ArticleIndex``), so no database is needed. Prints recall@1 and
recall@3 per language (and for the paraphrases alone); ``--signals`` measures one signal
without the other; ``--misses`` lists the questions not found in the top three.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "bench" / "retrieval_cases.jsonl"
# Written after the concept lexicon, and never used to change it: the figures on it are the
# honest ones (a lexicon fitted to its own examples scores better than it is).
HELD_OUT = ROOT / "bench" / "retrieval_holdout.jsonl"
TARGET_AT_3 = 0.95


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def demo_indexes() -> dict[str, Any]:
    """An index per language over the demo's articles, built as the live index is."""
    from netshop.demo.articles import demo_articles
    from netshop.knowledge.models import ArticleVersion, HelpArticle
    from netshop.knowledge.retrieval import ArticleIndex

    versions: dict[str, list[ArticleVersion]] = {"ja": [], "en": []}
    for pk, entry in enumerate(demo_articles()["articles"], 1):
        article = HelpArticle(
            pk=pk, key=entry["key"], category=entry["category"], tags=entry["tags"]
        )
        for language, found in versions.items():
            text = entry[language]
            found.append(
                ArticleVersion(
                    article=article,
                    language=language,
                    number=1,
                    title=text["title"],
                    body=text["body"],
                    questions=text.get("questions", []),
                )
            )
    return {language: ArticleIndex.build(found) for language, found in versions.items()}


@contextmanager
def signals(which: str) -> Iterator[None]:
    """Only one signal counted (``bm25`` or ``concepts``), or both."""
    from netshop.knowledge import retrieval

    weight, lexical = retrieval.CONCEPT_WEIGHT, retrieval.ArticleIndex._bm25
    if which == "bm25":
        retrieval.CONCEPT_WEIGHT = 0.0  # type: ignore[misc]
    if which == "concepts":
        retrieval.ArticleIndex._bm25 = lambda self, asked, doc: 0.0  # type: ignore[method-assign]
    try:
        yield
    finally:
        retrieval.CONCEPT_WEIGHT = weight  # type: ignore[misc]
        retrieval.ArticleIndex._bm25 = lexical  # type: ignore[method-assign]


def ranks(cases: list[dict[str, Any]], indexes: dict[str, Any]) -> list[int | None]:
    """Each case's article's rank in the top three (1-based), None when not there."""
    found: list[int | None] = []
    for case in cases:
        keys = [hit.key for hit in indexes[case["lang"]].search(case["q"], limit=3)]
        found.append(keys.index(case["key"]) + 1 if case["key"] in keys else None)
    return found


def report(cases: list[dict[str, Any]], found: list[int | None]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[int | None]] = {}
    for case, rank in zip(cases, found, strict=True):
        for name in (case["lang"], f"{case['lang']} paraphrases" if case.get("paraphrase") else ""):
            if name:
                groups.setdefault(name, []).append(rank)
    groups["all"] = found
    return {
        name: {
            "n": len(r),
            "recall@1": round(sum(x == 1 for x in r) / len(r), 3),
            "recall@3": round(sum(x is not None for x in r) / len(r), 3),
        }
        for name, r in groups.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signals", choices=["bm25", "concepts", "both"], default="both")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "netshop.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    os.environ.setdefault("NETSHOP_AUDIT_KEY", "bench:bench-only-audit-key-0123456789ab")
    import django

    django.setup()
    print(f"signals: {args.signals}")
    with signals(args.signals):
        indexes = demo_indexes()
        for title, path in (("the cases", CASES), ("held out", HELD_OUT)):
            _measure(title, load_cases(path), indexes, misses=args.misses)


def _measure(
    title: str, cases: list[dict[str, Any]], indexes: dict[str, Any], *, misses: bool
) -> None:
    found = ranks(cases, indexes)
    print(f"\n{title}")
    if misses:
        for case, rank in zip(cases, found, strict=True):
            if rank != 1:
                hits = [h.key for h in indexes[case["lang"]].search(case["q"], limit=3)]
                place = "miss" if rank is None else f"@{rank}"
                print(f"  {place}  {case['q']}  want {case['key']}  got {hits}")
    rows = report(cases, found)
    for name, row in rows.items():
        print(
            f"  {name:16} n={row['n']:3}  recall@1={row['recall@1']:.3f}  "
            f"recall@3={row['recall@3']:.3f}"
        )
    at_3 = rows["all"]["recall@3"]
    print(f"  target recall@3 >= {TARGET_AT_3}: {'met' if at_3 >= TARGET_AT_3 else 'MISSED'}")


if __name__ == "__main__":
    main()
