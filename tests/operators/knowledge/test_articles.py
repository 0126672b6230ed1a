"""Help articles in the console (issue 27, part 1): a manager keeps each article's Japanese
and English text side by side, saves drafts, previews how the AI would answer with them,
publishes (audited), reads each language's history with a diff, and moves the articles in
and out as a file. A refused save or import loses nothing and changes nothing; operators may
open none of it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents.team.runs import article_preview
from netshop.audit.models import AuditEntry
from netshop.knowledge.models import ArticleStatus, ArticleVersion, HelpArticle
from netshop.knowledge.retrieval import article_search
from netshop.knowledge.selectors import article_live_version
from netshop.roles import Role
from tests.factories import ArticleVersionFactory, help_article
from tests.operators.api_helpers import signed_in, staff_user

pytestmark = pytest.mark.django_db

RETURNS_JA = "返品は商品到着後7日以内にお申し出ください。"
RETURNS_EN = "Returns are accepted within 7 days of delivery."


@pytest.fixture
def returns() -> HelpArticle:
    """A returns article published in both languages (version 1 of each)."""
    ja = help_article(
        title="返品について", body=RETURNS_JA, key="returns-window", category="returns"
    )
    ArticleVersionFactory.create(
        article=ja.article, language="en", title="Returns", body=RETURNS_EN
    )
    return ja.article


def form(article: HelpArticle, **changes: str) -> dict[str, str]:
    """The edit form as the page fills it, with ``changes`` typed over it."""
    fields = {
        "category": article.category,
        "tags": ", ".join(article.tags),
        "title_ja": "返品について",
        "body_ja": RETURNS_JA,
        "questions_ja": "",
        "title_en": "Returns",
        "body_en": RETURNS_EN,
        "questions_en": "",
    }
    return fields | changes


def page(article: HelpArticle) -> str:
    return f"/knowledge/articles/{article.pk}/"


def actions() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (e.action, e.actor, e.data)
        for e in AuditEntry.objects.filter(action__startswith="article.").order_by("pk")
    ]


def test_the_list_shows_each_article_in_both_languages_with_what_is_pending(
    client: Client, returns: HelpArticle, django_assert_num_queries: Any
) -> None:
    client.post(page(returns), form(returns, body_en="Returns: 14 days."))

    with django_assert_num_queries(7):  # session, user, preference, roles; articles,
        listed = client.get("/knowledge/").content.decode()  # their versions, suggestions

    row = listed[listed.index('data-article="returns-window"') :]
    assert "返品について" in row
    assert "version 1 published" in row
    assert "draft 2 pending" in row


def test_saving_writes_a_draft_for_the_language_changed_only_and_customers_see_no_change(
    client: Client, returns: HelpArticle
) -> None:
    response = client.post(page(returns), form(returns, body_ja="返品は14日以内に承ります。"))

    assert response.status_code == 302
    draft = ArticleVersion.objects.get(status=ArticleStatus.DRAFT)
    assert (draft.language, draft.number, draft.body) == ("ja", 2, "返品は14日以内に承ります。")
    assert article_live_version(article=returns, language="ja").body == RETURNS_JA  # type: ignore[union-attr]
    assert [(a, who, d["language"]) for a, who, d in actions()] == [
        ("article.draft_saved", "kanrisha", "ja")
    ]


def test_publishing_makes_the_draft_live_for_the_next_search_and_is_audited(
    client: Client, returns: HelpArticle
) -> None:
    client.post(page(returns), form(returns, body_ja="返品は商品到着後14日以内に承ります。"))

    response = client.post(f"{page(returns)}publish", {"language": "ja"})

    assert response.status_code == 302
    live = article_live_version(article=returns, language="ja")
    assert live is not None
    assert (live.number, live.published_by.username) == (2, "kanrisha")  # type: ignore[union-attr]
    [hit, *_] = article_search(query="返品は何日以内ですか", language="ja")
    assert (hit.key, hit.version, hit.body) == (
        "returns-window",
        2,
        "返品は商品到着後14日以内に承ります。",
    )
    assert [a for a, _, _ in actions()] == ["article.draft_saved", "article.published"]


def test_a_refused_save_keeps_everything_typed_and_saves_neither_language(
    client: Client, returns: HelpArticle
) -> None:
    typed = form(returns, body_ja="新しい本文です。", title_en="   ")

    response = client.post(page(returns), typed)

    assert response.status_code == 422
    shown = response.content.decode()
    assert "An article needs a title and a body." in shown
    assert "新しい本文です。</textarea>" in shown
    assert not ArticleVersion.objects.filter(status=ArticleStatus.DRAFT).exists()
    assert actions() == []


def test_the_preview_answers_with_the_text_as_typed_and_saves_nothing(
    client: Client, returns: HelpArticle
) -> None:
    typed = form(
        returns,
        body_ja="返品は商品到着後30日以内にお申し出ください。",
        question="返品の期限はいつまでですか",
        preview_language="ja",
    )

    response = client.post(f"{page(returns)}preview", typed)

    shown = response.content.decode()
    assert response.status_code == 200
    assert 'id="preview-found"' in shown
    reply = shown[shown.index('id="preview-reply"') :]
    assert "30日以内" in reply[: reply.index("</blockquote>")]
    assert "30日以内にお申し出ください。</textarea>" in shown  # still in the box
    assert not ArticleVersion.objects.filter(status=ArticleStatus.DRAFT).exists()


def test_a_preview_the_writer_cannot_give_says_so_and_keeps_the_text(
    client: Client, returns: HelpArticle, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(state: object) -> str:
        raise TimeoutError("the model did not answer")

    monkeypatch.setattr(article_preview, "merge_reply", broken)
    typed = form(
        returns, body_ja="返品は30日以内です。", question="返品は？", preview_language="ja"
    )

    response = client.post(f"{page(returns)}preview", typed)

    assert response.status_code == 409
    shown = response.content.decode()
    assert "The reply cannot be shown now" in shown
    assert "返品は30日以内です。</textarea>" in shown


def test_the_history_lists_who_wrote_and_published_each_version_and_the_changes(
    client: Client, returns: HelpArticle
) -> None:
    client.post(
        page(returns), form(returns, body_ja="返品は商品到着後14日以内にお申し出ください。")
    )
    client.post(f"{page(returns)}publish", {"language": "ja"})

    shown = client.get(f"{page(returns)}history/ja").content.decode()

    assert 'data-version="2"' in shown
    assert "kanrisha" in shown
    diff = shown[shown.index('id="diff-body"') :]
    assert "<del>7</del><ins>14</ins>" in diff


def test_a_new_article_is_created_with_its_first_draft(client: Client) -> None:
    response = client.post(
        "/knowledge/articles/new",
        {
            "key": "gift-wrapping",
            "category": "orders",
            "tags": "gift, 包装",
            "language": "ja",
            "title": "ギフト包装",
            "body": "ギフト包装は1点330円で承ります。",
            "questions": "プレゼント用に包めますか\nラッピングできますか",
        },
    )

    article = HelpArticle.objects.get(key="gift-wrapping")
    assert response["Location"] == page(article)
    assert article.tags == ["gift", "包装"]
    draft = ArticleVersion.objects.get(article=article)
    assert (draft.status, draft.questions) == (
        "draft",
        ["プレゼント用に包めますか", "ラッピングできますか"],
    )


def test_a_refused_new_article_writes_nothing_and_keeps_what_was_typed(client: Client) -> None:
    help_article(title="返品", body="本文", key="returns-window")

    response = client.post(
        "/knowledge/articles/new",
        {
            "key": "returns-window",
            "category": "returns",
            "language": "ja",
            "title": "新",
            "body": "新しい本文",
        },
    )

    assert response.status_code == 409
    assert "新しい本文</textarea>" in response.content.decode()
    assert HelpArticle.objects.count() == 1


def test_the_export_downloads_the_articles_file_and_an_import_of_it_changes_nothing(
    client: Client, returns: HelpArticle
) -> None:
    exported = client.get("/knowledge/articles/export.json")

    assert exported["Content-Disposition"].startswith('attachment; filename="help-articles-')
    document = json.loads(exported.content)
    assert [a["key"] for a in document["articles"]] == ["returns-window"]
    upload = SimpleUploadedFile("articles.json", exported.content, "application/json")
    imported = client.post("/knowledge/articles/import", {"file": upload}, follow=True)
    assert "0 new articles, 0 versions published, 2 unchanged" in imported.content.decode()


def test_an_import_of_a_wrong_file_lists_its_problems_and_imports_nothing(
    client: Client, returns: HelpArticle
) -> None:
    document = {
        "format": "netshop-help-articles",
        "version": 1,
        "articles": [
            {
                "key": "returns-window",
                "category": "returns",
                "ja": {"title": "返品", "body": "14日"},
            },
            {"key": "Bad Key", "category": "returns", "ja": {"title": "x", "body": "y"}},
        ],
    }
    upload = SimpleUploadedFile("a.json", json.dumps(document).encode(), "application/json")

    response = client.post("/knowledge/articles/import", {"file": upload})

    assert response.status_code == 422
    assert "Nothing was imported: article 2:" in response.content.decode()
    assert article_live_version(article=returns, language="ja").number == 1  # type: ignore[union-attr]
    assert actions() == []


def test_a_file_that_is_not_utf8_is_refused(client: Client) -> None:
    upload = SimpleUploadedFile("a.json", "返品".encode("shift_jis"), "application/json")

    response = client.post("/knowledge/articles/import", {"file": upload})

    assert response.status_code == 422
    assert "not UTF-8" in response.content.decode()


def test_an_operator_may_open_none_of_the_article_pages(returns: HelpArticle) -> None:
    operator = signed_in(staff_user("tantousha", Role.OPERATOR))

    answers = [
        operator.get("/knowledge/").status_code,
        operator.get(page(returns)).status_code,
        operator.post(page(returns), form(returns, body_ja="改ざん")).status_code,
        operator.post(f"{page(returns)}publish", {"language": "ja"}).status_code,
        operator.get("/knowledge/articles/export.json").status_code,
        operator.get(f"{page(returns)}history/ja").status_code,
    ]

    assert answers == [403] * 6
    assert not ArticleVersion.objects.filter(status=ArticleStatus.DRAFT).exists()
