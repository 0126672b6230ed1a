"""The demo FAQ as a data file: the loader's entries, and the rows seed_demo makes of them.

Given ``netshop/demo/faq.json``, when it is loaded and seeded, then the entries are exactly
the ones ``netshop/demo/faq.py`` held as code before the move, and every one becomes a row.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest

from netshop.demo.faq import FAQ, FAQ_PATH, FaqSpec, load_faq
from netshop.demo.seed import seed_demo
from netshop.models import FaqEntry

ROOT = Path(__file__).resolve().parents[2]
# The SHA-256 of the 74 entries as netshop/demo/faq.py defined them in code (commit f036c35,
# with the coupon rules of issue 10 since),
# serialised as below. Editing the FAQ on purpose changes it: update it with the edit.
ENTRIES_AT_THE_MOVE = "5028339ed6f7d8f9f35ea05acc24409f9489b312ad2b95f56b7f102566f360f2"


def digest(entries: tuple[FaqSpec, ...]) -> str:
    canonical = json.dumps([list(e) for e in entries], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def test_the_loaded_entries_are_the_ones_the_module_held() -> None:
    assert len(FAQ) == 74
    assert digest(FAQ) == ENTRIES_AT_THE_MOVE
    assert FAQ[0] == FaqSpec(
        category="returns",
        language="ja",
        question="返品はできますか？返品期限は何日ですか？",
        answer="商品到着後14日以内で、未使用・タグ付きの商品であれば返品を承ります。"
        "マイページの注文履歴から返品を申請してください。お客様都合の返品は返送料をご負担ください。",
        keywords="返品 返品期限 14日 返品ポリシー 未使用",
    )
    assert FAQ[-1] == FaqSpec(
        category="other",
        language="en",
        question="What are your support hours?",
        answer="Our support staff work weekdays 10:00-18:00 (Japan time). The contact form is "
        "open 24 hours and we reply within one business day.",
        keywords="support hours contact phone opening times",
    )


def test_each_topic_gives_a_japanese_then_an_english_entry_in_one_category() -> None:
    pairs = list(zip(FAQ[0::2], FAQ[1::2], strict=True))

    assert {(ja.language, en.language) for ja, en in pairs} == {("ja", "en")}
    assert all(ja.category == en.category for ja, en in pairs)
    assert {e.category for e in FAQ} == set(FaqEntry.Category.values)


def test_a_topic_missing_a_language_is_refused_by_name(tmp_path: Path) -> None:
    broken = tmp_path / "faq.json"
    topic = {"category": "other", "ja": {"question": "q", "answer": "a", "keywords": "k"}}
    broken.write_text(json.dumps({"topics": [topic]}), encoding="utf-8")

    with pytest.raises(KeyError, match="'en'"):
        load_faq(broken)


def test_the_faq_file_is_package_data_so_an_installed_shop_has_it() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

    package_data = pyproject["tool"]["setuptools"]["package-data"]
    assert FAQ_PATH.name in package_data["netshop.demo"]
    assert FAQ_PATH.parent == ROOT / "netshop" / "demo"


@pytest.mark.django_db
def test_seed_demo_makes_exactly_one_row_per_entry() -> None:
    seed_demo(password="demo-pass-for-tests")

    rows = FaqEntry.objects.order_by("pk").values_list(
        "category", "language", "question", "answer", "keywords"
    )
    assert [FaqSpec(*row) for row in rows] == list(FAQ)


# --- The demo FAQ states the coupon rules the service applies ------------------------------


def test_the_faq_states_the_coupon_rules_the_service_enforces(settings: object) -> None:
    apology = {e.language: e.answer for e in FAQ if "お詫びクーポン" in e.keywords}
    apology |= {e.language: e.answer for e in FAQ if "apology coupon" in e.keywords}
    days = settings.NETSHOP_COUPON_WINDOW_DAYS  # type: ignore[attr-defined]
    cap = settings.NETSHOP_COUPON_CAP_YEN  # type: ignore[attr-defined]

    assert settings.NETSHOP_COUPON_LIMIT_PER_CUSTOMER == 1  # type: ignore[attr-defined]
    assert f"お一人様{days}日間に1枚まで" in apology["ja"]
    assert f"one per customer in {days} days" in apology["en"]
    assert f"最大{cap:,}円分" in apology["ja"]
    assert f"up to ¥{cap:,}" in apology["en"]
    assert "90日間有効" in apology["ja"]
    assert "valid for 90 days" in apology["en"]
    assert "期限切れのクーポンは再発行できません" in apology["ja"]
    assert "Expired coupons cannot be reissued" in apology["en"]
