"""The demo shop's help articles: today's FAQ, one article per topic in Japanese and English.

They live in ``articles.json`` beside this module, in the import/export format of
``netshop.knowledge.files`` (edit them there, or in the console once seeded). The numbers in
them (14 days, ¥5,000, 08-12 ...) are the demo shop's policy and match the rules the services
enforce, so an answer taken from the help never contradicts what support can do. The coupon
rules (a cause on record, one per inquiry, one per customer in 30 days, ¥1,000, 90 days, no
reissue) are the defaults of ``netshop.services.coupons``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from netshop.knowledge.files import articles_import
from netshop.knowledge.models import HelpArticle

ARTICLES_PATH = Path(__file__).with_name("articles.json")


def demo_articles(path: Path = ARTICLES_PATH) -> dict[str, Any]:
    """The demo's articles file, parsed."""
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def seed_articles() -> list[str]:
    """Import the demo's articles the database does not have yet (by key), once: an article
    a manager has since edited is theirs, and seeding again leaves it alone. Returns the keys
    imported."""
    document = demo_articles()
    known = set(HelpArticle.objects.values_list("key", flat=True))
    missing = [a for a in document["articles"] if a["key"] not in known]
    if not missing:
        return []
    return articles_import({**document, "articles": missing}).created
