"""The offline writer knows what an article is about by its topic tags, never its wording."""

from __future__ import annotations

from agents.providers.offline.understanding.faq import (
    ARTICLE_OF_ACTION,
    PROBLEMS,
    entry_problem,
    explains_action,
    problems_in,
)
from agents.support.vocabulary import Skill
from netshop.knowledge.tags import ACTION_TAGS, PROBLEM_TAGS


def test_every_problem_tag_has_the_customers_words_or_a_claim_reader() -> None:
    # not_received is a claim ("it says delivered but..."), read by claims.says_not_received.
    assert set(PROBLEMS) | {"not_received"} == set(PROBLEM_TAGS)
    assert set(ARTICLE_OF_ACTION.values()) <= set(ACTION_TAGS)


def test_an_article_is_about_the_problem_its_tags_name_whatever_its_title() -> None:
    reworded = {"title": "When something arrives in pieces", "tags": ["damaged", "return_policy"]}

    assert entry_problem(reworded) == "damaged"
    assert entry_problem({"title": "My item arrived damaged", "tags": []}) is None
    assert "damaged" in problems_in("The mug arrived cracked")


def test_the_cancellation_article_is_known_by_its_tag() -> None:
    article = {"title": "Changed your mind?", "tags": ["order_cancellation"]}

    assert explains_action(article, {Skill.CANCEL_ORDER})
    assert not explains_action(article, {Skill.PROCESS_REFUND})
    assert not explains_action(
        {"title": "注文をキャンセルしたい。", "tags": []}, {Skill.CANCEL_ORDER}
    )
