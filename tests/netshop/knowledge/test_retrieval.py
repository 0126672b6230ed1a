"""Finding the article for a question: BM25 over the terms, the concepts as a second signal,
and a per-process index rebuilt when anything is published, with no restart."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from netshop.knowledge import retrieval
from netshop.knowledge.models import ArticleVersion
from netshop.knowledge.retrieval import article_search, live_index
from netshop.knowledge.services import article_draft_save, article_publish
from netshop.knowledge.tokens import terms
from tests.factories import ArticleVersionFactory, help_article
from tests.support.workers import ROOT, worker_env

pytestmark = pytest.mark.django_db


@pytest.fixture
def shop_help() -> dict[str, ArticleVersion]:
    return {
        "ja_returns": help_article(
            key="returns",
            category="returns",
            tags=("return_policy",),
            title="商品を返品・交換したい",
            body="商品到着後8日以内にマイページから返品をお申し込みください。",
        ),
        "ja_delivery": help_article(
            key="delivery-days",
            category="delivery",
            tags=("delivery_time",),
            title="注文した商品はいつ届きますか？",
            body="通常、ご注文から2〜4日でお届けします。",
        ),
        "ja_payment": help_article(
            key="payment-methods",
            category="payment",
            tags=("payment_methods",),
            title="支払い方法を教えてください",
            body="クレジットカード、コンビニ払い、銀行振込、代金引換をご利用いただけます。",
        ),
        "en_returns": help_article(
            key="returns-en",
            category="returns",
            language="en",
            title="How do I return an item?",
            body="Request a return from My Page within 8 days of delivery.",
        ),
        "en_redelivery": help_article(
            key="redelivery",
            category="delivery",
            language="en",
            tags=("missed_delivery",),
            title="Redelivery",
            body="Request a redelivery with the tracking number on the notice.",
        ),
    }


def keys(hits: list[retrieval.ArticleHit]) -> list[str]:
    return [hit.key for hit in hits]


def test_japanese_is_found_without_spaces_and_in_its_language_only(
    shop_help: dict[str, ArticleVersion],
) -> None:
    hits = article_search(query="先週買った靴を返品したいのですが", language="ja")

    assert keys(hits)[0] == "returns"
    assert "returns-en" not in keys(hits)


def test_bm25_ranks_the_article_covering_more_of_the_question_first(
    shop_help: dict[str, ArticleVersion],
) -> None:
    assert keys(article_search(query="注文した荷物がいつ届くか知りたい", language="ja"))[0] == (
        "delivery-days"
    )
    assert keys(article_search(query="Returns for items?", language="en"))[0] == "returns-en"


def test_a_paraphrase_sharing_no_word_is_found_through_its_concept(
    shop_help: dict[str, ArticleVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "Nobody was home when the courier came"
    article = shop_help["en_redelivery"]
    assert set(terms(question)) & set(terms(f"{article.title} {article.body}")) == set()

    found = article_search(query=question, language="en")
    monkeypatch.setattr(retrieval, "CONCEPT_WEIGHT", 0.0)
    words_only = article_search(query=question, language="en")

    assert keys(found)[0] == "redelivery"
    assert "redelivery" not in keys(words_only)


def test_a_category_narrows_and_a_limit_cuts(shop_help: dict[str, ArticleVersion]) -> None:
    question = "カード 返品 配送"

    assert keys(article_search(query=question, language="ja", category="payment")) == [
        "payment-methods"
    ]
    assert len(article_search(query=question, language="ja", limit=2)) == 2


def test_a_question_about_nothing_the_shop_helps_with_finds_nothing(
    shop_help: dict[str, ArticleVersion],
) -> None:
    assert article_search(query="宇宙旅行", language="ja") == []
    assert article_search(query="the of and", language="en") == []
    assert article_search(query="", language="en") == []


def test_a_hit_names_the_article_and_the_version_searched(
    shop_help: dict[str, ArticleVersion],
) -> None:
    (hit,) = article_search(query="支払い方法", language="ja", limit=1)

    assert hit.as_dict() == {
        "id": shop_help["ja_payment"].article_id,
        "article": "payment-methods",
        "version": 1,
        "title": "支払い方法を教えてください",
        "body": "クレジットカード、コンビニ払い、銀行振込、代金引換をご利用いただけます。",
        "category": "payment",
        "tags": ["payment_methods"],
    }


def test_a_drafts_and_an_unpublished_articles_text_is_never_searched(
    shop_help: dict[str, ArticleVersion],
) -> None:
    ArticleVersionFactory.create(
        article=shop_help["ja_payment"].article, number=2, status="draft", body="PayPay も使えます"
    )

    hits = article_search(query="PayPay", language="ja")

    assert [hit.version for hit in hits if hit.key == "payment-methods"] in ([], [1])


def test_the_index_is_kept_while_nothing_changes_at_the_cost_of_one_query(
    shop_help: dict[str, ArticleVersion], django_assert_num_queries: Any
) -> None:
    first = live_index("ja")

    with django_assert_num_queries(1):
        again = live_index("ja")

    assert again is first


def test_a_publish_is_searched_at_once_with_no_restart(
    shop_help: dict[str, ArticleVersion],
) -> None:
    article = shop_help["ja_payment"].article
    before = article_search(query="支払い方法", language="ja", limit=1)[0]
    draft = article_draft_save(
        article=article, language="ja", title="支払い方法", body="PayPayもご利用いただけます。"
    )

    assert article_search(query="支払い方法", language="ja", limit=1)[0] == before
    article_publish(version=draft)
    after = article_search(query="支払い方法", language="ja", limit=1)[0]

    assert (before.version, after.version) == (1, 2)
    assert after.body == "PayPayもご利用いただけます。"


def test_a_draft_is_searched_in_place_of_its_live_version_for_a_preview_only(
    shop_help: dict[str, ArticleVersion],
) -> None:
    article = shop_help["en_returns"].article
    draft = article_draft_save(
        article=article, language="en", title="Returns", body="Within 30 days now."
    )

    previewed = article_search(query="return an item", language="en", draft=draft)
    live = article_search(query="return an item", language="en")

    assert (previewed[0].key, previewed[0].version, previewed[0].body) == (
        "returns-en",
        2,
        "Within 30 days now.",
    )
    assert (live[0].version, keys(previewed)) == (1, keys(live))


# A process that keeps its index between two searches: what a web or worker process does.
SECOND_PROCESS = """
import django, sys
django.setup()
from netshop.knowledge.retrieval import article_search
def best():
    hit = article_search(query="支払い方法", language="ja", limit=1)[0]
    print(hit.version, hit.body, flush=True)
best()
sys.stdin.readline()
best()
"""


@pytest.mark.django_db(transaction=True)
def test_another_process_answers_from_a_version_published_after_it_built_its_index() -> None:
    article = help_article(
        key="payment-methods",
        title="支払い方法",
        body="カードが使えます。",
        tags=("payment_methods",),
    ).article
    env = worker_env({"DJANGO_SETTINGS_MODULE": "netshop.settings"})
    other = subprocess.Popen(
        [sys.executable, "-c", SECOND_PROCESS],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert other.stdin is not None
    assert other.stdout is not None
    try:
        first = other.stdout.readline().strip()
        draft = article_draft_save(
            article=article, language="ja", title="支払い方法", body="PayPayも使えます。"
        )
        article_publish(version=draft)
        other.stdin.write("go\n")
        other.stdin.flush()
        second = other.stdout.readline().strip()
    finally:
        other.communicate(timeout=30)

    assert (first, second) == ("1 カードが使えます。", "2 PayPayも使えます。")
