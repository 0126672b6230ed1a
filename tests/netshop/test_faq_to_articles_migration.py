"""The one-time move of the FAQ entries into help articles (migration 0014).

Given FAQ entry rows (the demo's pair for shipping, and an entry the demo never had), when
the migration runs, then each text is version 1 of a published article: the demo's pair is one
article with the demo file's key and tags, the other an article of its own, untagged.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("netshop", "0013_operators_without_ledgers")]
AFTER = [("netshop", "0014_help_articles")]


@pytest.fixture
def back_to_latest() -> Iterator[None]:
    """Going back to 0013 unapplies every later migration of every app: the database is
    migrated to the latest again afterwards, for the tests after this one."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest")
def test_faq_entries_become_published_articles() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("netshop", "FaqEntry")
    old.objects.create(
        question="送料はいくらですか？", answer="550円です。", category="delivery", language="ja"
    )
    old.objects.create(
        question="How much is shipping?", answer="¥550.", category="delivery", language="en"
    )
    own = old.objects.create(
        question="Do you sell gift cards?", answer="Not yet.", category="other", language="en"
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)

    apps = executor.loader.project_state(AFTER).apps
    articles = apps.get_model("netshop", "HelpArticle").objects.order_by("key")
    versions = apps.get_model("netshop", "ArticleVersion").objects.order_by(
        "article__key", "language"
    )
    assert [(a.key, a.category, a.tags) for a in articles] == [
        (f"faq-{own.pk}", "other", []),
        ("shipping-fee", "delivery", ["shipping_fee"]),
    ]
    assert [(v.article.key, v.language, v.number, v.status, v.body) for v in versions] == [
        (f"faq-{own.pk}", "en", 1, "published", "Not yet."),
        ("shipping-fee", "en", 1, "published", "¥550."),
        ("shipping-fee", "ja", 1, "published", "550円です。"),
    ]
