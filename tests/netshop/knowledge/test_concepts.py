"""The concept lexicon: customers' words, either language, read into topic names."""

from __future__ import annotations

import pytest

from netshop.knowledge.concepts import LEXICON, concepts_in
from netshop.knowledge.tags import TOPIC_TAGS


def test_every_concept_is_a_topic_tag_articles_can_carry() -> None:
    assert set(LEXICON) == set(TOPIC_TAGS)


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("プレゼント用に包んでもらえますか", "gift_wrapping"),
        ("Could you put it in present packaging?", "gift_wrapping"),
        ("留守の間に宅配便が来てしまいました", "missed_delivery"),
        ("Nobody was home when the courier came", "missed_delivery"),
        ("同じ注文で二回引き落とされている", "double_charge"),
        ("I was billed twice", "double_charge"),
    ],
)
def test_words_sharing_nothing_with_an_article_name_its_topic(text: str, concept: str) -> None:
    assert concept in concepts_in(text)


def test_text_about_nothing_the_shop_helps_with_names_no_concept() -> None:
    assert concepts_in("宇宙旅行") == frozenset()
    assert concepts_in("the of and") == frozenset()
