"""Help articles as a file, so a shop can keep them in its own repository.

The format (JSON, UTF-8)::

    {
      "format": "netshop-help-articles",
      "version": 1,
      "articles": [
        {
          "key": "returns-window",        # a slug: names the article for good
          "category": "returns",          # returns|delivery|payment|account|coupons|orders|other
          "tags": ["return_policy"],      # topic tags (netshop.knowledge.tags)
          "ja": {"title": "...", "body": "...", "questions": ["..."]},
          "en": {"title": "...", "body": "...", "questions": []}
        }
      ]
    }

A language may be left out; ``questions`` (other ways customers ask) is optional. An export
holds every article's live (latest published) text; drafts stay in the console.

An import publishes, for each article and language, the file's text when it differs from the
live version (a new version, audited like a publish from the console), and sets category and
tags; an article the file does not name is left alone. A draft in progress for a language the
file changes is replaced by the file's text (the file is the shop's source of truth). Importing
the same file twice changes nothing the second time. A file with any error changes nothing:
it is checked whole first, and every problem is reported with where it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from django.contrib.auth.models import User
from django.db import transaction

from netshop.errors import DomainError
from netshop.knowledge.models import ArticleCategory, HelpArticle
from netshop.knowledge.selectors import article_live_version, articles_published
from netshop.knowledge.services import (
    article_create,
    article_describe,
    article_draft_save,
    article_publish,
)
from netshop.languages import Language

FORMAT: Final = "netshop-help-articles"
FORMAT_VERSION: Final = 1
_KEY_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass
class ImportReport:
    """What an import did: the articles created and the versions published, by key."""

    created: list[str] = field(default_factory=list)
    published: list[str] = field(default_factory=list)  # "key ja v2"
    unchanged: int = 0


def articles_export() -> dict[str, Any]:
    """Every article with its live text per language, in the file format."""
    by_key: dict[str, dict[str, Any]] = {}
    for version in articles_published():
        article = version.article
        entry = by_key.setdefault(
            article.key, {"key": article.key, "category": article.category, "tags": article.tags}
        )
        entry[version.language] = {
            "title": version.title,
            "body": version.body,
            "questions": list(version.questions),
        }
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "articles": [by_key[key] for key in sorted(by_key)],
    }


def articles_export_text() -> str:
    return json.dumps(articles_export(), ensure_ascii=False, indent=2) + "\n"


def articles_import_text(text: str, *, user: User | None = None) -> ImportReport:
    """Import a file's text (see the module's docstring); ``DomainError("articles_file_invalid")``
    listing every problem, and nothing changed, when it is not a valid file."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DomainError("articles_file_invalid", problems=f"not JSON: {exc}") from None
    return articles_import(document, user=user)


def articles_import(document: Any, *, user: User | None = None) -> ImportReport:
    """Import a parsed file; the whole file or nothing."""
    problems = file_problems(document)
    if problems:
        raise DomainError("articles_file_invalid", problems="; ".join(problems))
    report = ImportReport()
    with transaction.atomic():
        for entry in document["articles"]:
            _import_article(entry, report, user)
    return report


def _import_article(entry: Mapping[str, Any], report: ImportReport, user: User | None) -> None:
    article = HelpArticle.objects.filter(key=entry["key"]).first()
    tags = entry.get("tags") or []
    if article is None:
        article = article_create(key=entry["key"], category=entry["category"], tags=tags, user=user)
        report.created.append(article.key)
    else:
        article_describe(article=article, category=entry["category"], tags=tags, user=user)
    for language in Language.values:
        text = entry.get(language)
        if text is not None:
            _import_text(article, language, text, report, user)


def _import_text(
    article: HelpArticle,
    language: str,
    text: Mapping[str, Any],
    report: ImportReport,
    user: User | None,
) -> None:
    title, body = text["title"].strip(), text["body"].strip()
    questions = [q.strip() for q in text.get("questions") or [] if q.strip()]
    live = article_live_version(article=article, language=language)
    if live is not None and (live.title, live.body, list(live.questions)) == (
        title,
        body,
        questions,
    ):
        report.unchanged += 1
        return
    draft = article_draft_save(
        article=article, language=language, title=title, body=body, questions=questions, user=user
    )
    article_publish(version=draft, user=user)
    report.published.append(f"{article.key} {language} v{draft.number}")


def file_problems(document: Any) -> list[str]:
    """Everything wrong with a parsed file, each with where it is; [] for a valid one."""
    if not isinstance(document, dict):
        return ["the file is not a JSON object"]
    problems = []
    if document.get("format") != FORMAT:
        problems.append(f'"format" is not "{FORMAT}"')
    if document.get("version") != FORMAT_VERSION:
        problems.append(f'"version" is not {FORMAT_VERSION}')
    articles = document.get("articles")
    if not isinstance(articles, list):
        return [*problems, '"articles" is not a list']
    seen: set[str] = set()
    for index, entry in enumerate(articles):
        problems += [f"article {index + 1}: {p}" for p in _article_problems(entry, seen)]
    return problems


def _article_problems(entry: Any, seen: set[str]) -> list[str]:
    if not isinstance(entry, dict):
        return ["not an object"]
    key = entry.get("key")
    problems = []
    if not isinstance(key, str) or not key or not set(key) <= _KEY_CHARS or len(key) > 80:
        problems.append('"key" must be lowercase letters, digits, - and _ (at most 80)')
    elif key in seen:
        problems.append(f'"key" {key} appears twice')
    else:
        seen.add(key)
    if entry.get("category") not in ArticleCategory.values:
        problems.append(f'"category" must be one of {", ".join(ArticleCategory.values)}')
    tags = entry.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        problems.append('"tags" must be a list of strings')
    texts = [language for language in Language.values if language in entry]
    if not texts:
        problems.append("no text in any language (ja, en)")
    for language in texts:
        problems += [f"{language}: {p}" for p in _text_problems(entry[language])]
    return problems


def _text_problems(text: Any) -> list[str]:
    if not isinstance(text, dict):
        return ["not an object"]
    problems = [
        f'"{name}" is missing or blank'
        for name in ("title", "body")
        if not isinstance(text.get(name), str) or not text[name].strip()
    ]
    if isinstance(text.get("title"), str) and len(text["title"].strip()) > 300:
        problems.append('"title" is longer than 300 characters')
    questions = text.get("questions", [])
    if not isinstance(questions, list) or not all(isinstance(q, str) for q in questions):
        problems.append('"questions" must be a list of strings')
    return problems
