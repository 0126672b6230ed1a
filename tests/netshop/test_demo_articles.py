"""The demo's help articles: today's FAQ as an articles file, imported once by seed_demo.

Given ``netshop/demo/articles.json``, when it is read and seeded, then it is a valid articles
file holding the FAQ's 37 topics in both languages, each tagged with what it is about, and
seed_demo publishes each text as version 1.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from netshop.demo.articles import ARTICLES_PATH, demo_articles
from netshop.demo.seed import seed_demo
from netshop.knowledge.files import file_problems
from netshop.knowledge.models import ArticleCategory
from netshop.knowledge.selectors import articles_published
from netshop.knowledge.tags import PROBLEM_TAGS, TOPIC_TAGS

ROOT = Path(__file__).resolve().parents[2]
# The SHA-256 of the 74 texts (category, language, question, answer) of netshop/demo/faq.json
# at the move to articles, serialised as below: the move changed no word.
TEXTS_AT_THE_MOVE = "852ac1786ae91b39ed1f0f987a5e931fdead00934de456bf419854fb291c2a83"


def texts(document: dict[str, Any]) -> list[list[str]]:
    return [
        [article["category"], language, article[language]["title"], article[language]["body"]]
        for article in document["articles"]
        for language in ("ja", "en")
    ]


def digest(rows: list[list[str]]) -> str:
    canonical = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def test_the_file_is_a_valid_articles_file_with_both_languages_of_every_topic() -> None:
    document = demo_articles()

    assert file_problems(document) == []
    assert len(document["articles"]) == 37
    assert all({"ja", "en"} <= set(article) for article in document["articles"])
    assert {a["category"] for a in document["articles"]} == set(ArticleCategory.values)


def test_the_texts_are_the_faqs_word_for_word() -> None:
    assert digest(texts(demo_articles())) == TEXTS_AT_THE_MOVE


def test_every_article_is_tagged_with_known_topics_and_each_problem_has_its_article() -> None:
    tags = [tag for article in demo_articles()["articles"] for tag in article["tags"]]

    assert set(tags) <= set(TOPIC_TAGS)
    assert set(PROBLEM_TAGS) <= set(tags)
    assert all(article["tags"] for article in demo_articles()["articles"])


def test_the_articles_file_is_package_data_so_an_installed_shop_has_it() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

    package_data = pyproject["tool"]["setuptools"]["package-data"]
    assert ARTICLES_PATH.name in package_data["netshop.demo"]
    assert ARTICLES_PATH.parent == ROOT / "netshop" / "demo"


@pytest.mark.django_db
def test_seed_demo_publishes_each_text_once_as_version_1() -> None:
    seed_demo(password="demo-pass-for-tests")
    seed_demo(password="demo-pass-for-tests")

    live = articles_published()
    assert len(live) == 74
    assert {v.number for v in live} == {1}
    rows = sorted([v.article.category, v.language, v.title, v.body] for v in live)
    assert rows == sorted(texts(demo_articles()))


# --- The demo's help states the coupon rules the service applies ---------------------------


def test_the_help_states_the_coupon_rules_the_service_enforces(settings: object) -> None:
    (apology,) = (a for a in demo_articles()["articles"] if "apology_coupon" in a["tags"])
    ja, en = apology["ja"]["body"], apology["en"]["body"]
    days = settings.NETSHOP_COUPON_WINDOW_DAYS  # type: ignore[attr-defined]
    cap = settings.NETSHOP_COUPON_CAP_YEN  # type: ignore[attr-defined]

    assert settings.NETSHOP_COUPON_LIMIT_PER_CUSTOMER == 1  # type: ignore[attr-defined]
    assert f"お一人様{days}日間に1枚まで" in ja
    assert f"one per customer in {days} days" in en
    assert f"最大{cap:,}円分" in ja
    assert f"up to ¥{cap:,}" in en
    assert "90日間有効" in ja
    assert "valid for 90 days" in en
    assert "期限切れのクーポンは再発行できません" in ja
    assert "Expired coupons cannot be reissued" in en
