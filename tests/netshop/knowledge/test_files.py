"""Help articles as a file: export, import, round trips, idempotence and bad files."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.knowledge.files import articles_export, articles_import, articles_import_text
from netshop.knowledge.models import ArticleVersion, HelpArticle
from netshop.knowledge.selectors import article_get, article_live_version

pytestmark = pytest.mark.django_db


def a_file() -> dict[str, Any]:
    return {
        "format": "netshop-help-articles",
        "version": 1,
        "articles": [
            {
                "key": "gift-wrapping",
                "category": "other",
                "tags": ["gift_wrapping"],
                "ja": {"title": "ギフト包装", "body": "1点330円です。", "questions": ["のし"]},
                "en": {"title": "Gift wrapping", "body": "¥330 an item.", "questions": []},
            },
            {
                "key": "support-hours",
                "category": "other",
                "tags": ["support_hours"],
                "en": {"title": "Support hours", "body": "Weekdays 10-18."},
            },
        ],
    }


def test_an_import_publishes_each_text_as_version_1_audited() -> None:
    report = articles_import(a_file())

    assert report.created == ["gift-wrapping", "support-hours"]
    assert report.published == [
        "gift-wrapping ja v1",
        "gift-wrapping en v1",
        "support-hours en v1",
    ]
    live = article_live_version(article=article_get(key="gift-wrapping"), language="ja")
    assert live is not None
    assert (live.title, live.body, live.questions) == ("ギフト包装", "1点330円です。", ["のし"])
    assert AuditEntry.objects.filter(action=AuditAction.ARTICLE_PUBLISHED).count() == 3


def test_the_same_file_twice_changes_nothing_the_second_time() -> None:
    articles_import(a_file())
    audited = AuditEntry.objects.count()

    report = articles_import(a_file())

    assert (report.created, report.published, report.unchanged) == ([], [], 3)
    assert ArticleVersion.objects.count() == 3
    assert AuditEntry.objects.count() == audited


def test_a_changed_text_is_a_new_version_and_the_old_one_is_kept() -> None:
    articles_import(a_file())
    changed = a_file()
    changed["articles"][0]["en"]["body"] = "¥440 an item."
    changed["articles"][0]["tags"] = ["gift_wrapping", "noshi"]

    report = articles_import(changed)

    article = article_get(key="gift-wrapping")
    assert report.published == ["gift-wrapping en v2"]
    assert article.tags == ["gift_wrapping", "noshi"]
    assert article_live_version(article=article, language="en").body == "¥440 an item."  # type: ignore[union-attr]
    assert ArticleVersion.objects.filter(article=article, language="en").count() == 2


def test_export_then_import_into_an_empty_shop_round_trips() -> None:
    articles_import(a_file())
    exported = articles_export()
    HelpArticle.objects.all().delete()

    articles_import(json.loads(json.dumps(exported)))

    assert articles_export() == exported
    assert exported["articles"][1]["en"] == {
        "title": "Support hours",
        "body": "Weekdays 10-18.",
        "questions": [],
    }


def test_a_bad_file_names_every_problem_and_changes_nothing() -> None:
    bad = copy.deepcopy(a_file())
    bad["articles"][0]["category"] = "weather"
    bad["articles"][1]["key"] = "Support Hours"
    bad["articles"][1]["en"]["body"] = ""
    bad["articles"].append({"key": "gift-wrapping", "category": "other", "ja": "text"})

    with pytest.raises(DomainError) as refused:
        articles_import(bad)

    assert refused.value.code == "articles_file_invalid"
    message = refused.value.message
    assert 'article 1: "category" must be one of' in message
    assert 'article 2: "key" must be lowercase letters' in message
    assert 'article 2: en: "body" is missing or blank' in message
    assert 'article 3: "key" gift-wrapping appears twice' in message
    assert "article 3: ja: not an object" in message
    assert not HelpArticle.objects.exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "not JSON"),
        ("[]", "the file is not a JSON object"),
        ('{"format": "other", "version": 1, "articles": []}', '"format" is not'),
        ('{"format": "netshop-help-articles", "version": 2, "articles": []}', '"version" is not 1'),
        ('{"format": "netshop-help-articles", "version": 1}', '"articles" is not a list'),
    ],
)
def test_what_is_not_an_articles_file_is_refused(text: str, said: str) -> None:
    with pytest.raises(DomainError, match=said):
        articles_import_text(text)


def test_the_command_exports_and_imports_files(tmp_path: Path) -> None:
    source = tmp_path / "articles.json"
    source.write_text(json.dumps(a_file(), ensure_ascii=False), encoding="utf-8")
    out = StringIO()

    call_command("articles", "import", str(source), stdout=out)
    call_command("articles", "export", str(tmp_path / "export.json"))

    assert out.getvalue().startswith("created 2 article(s), published 3 version(s), 0 unchanged")
    exported = json.loads((tmp_path / "export.json").read_text(encoding="utf-8"))
    assert [a["key"] for a in exported["articles"]] == ["gift-wrapping", "support-hours"]


def test_the_command_refuses_a_bad_file_with_its_problems(tmp_path: Path) -> None:
    source = tmp_path / "bad.json"
    source.write_text('{"format": "netshop-help-articles", "version": 1, "articles": [{}]}')

    with pytest.raises(CommandError, match='article 1: "key" must be'):
        call_command("articles", "import", str(source))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("articles", "import", str(tmp_path / "missing.json"))
