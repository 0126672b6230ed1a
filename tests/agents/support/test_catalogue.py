"""The customer's catalogues: both languages say the same things, and a lookup fails loudly."""

from __future__ import annotations

import pytest

from agents.support import catalogue
from agents.support.catalogue import (
    CATALOGUES,
    CatalogueError,
    Language,
    placeholders,
    say,
    without_frame,
)
from agents.support.vocabulary import GATED_SKILLS
from netshop.knowledge.models import ArticleCategory
from netshop.models import OrderStatus, PaymentMethod, ShipmentStatus


def test_both_languages_have_the_same_keys() -> None:
    assert sorted(CATALOGUES["ja"]) == sorted(CATALOGUES["en"])


@pytest.mark.parametrize("key", sorted(CATALOGUES["ja"]))
def test_both_languages_take_the_same_placeholders(key: str) -> None:
    assert placeholders("ja", key) == placeholders("en", key)


@pytest.mark.parametrize(
    ("family", "codes"),
    [
        ("order_status", OrderStatus.values),
        ("shipment_status", ShipmentStatus.values),
        ("payment_method", PaymentMethod.values),
        ("faq_topic", ArticleCategory.values),
        ("action", sorted(GATED_SKILLS)),
    ],
)
def test_every_shop_code_a_customer_is_told_has_its_words(family: str, codes: list[str]) -> None:
    missing = [code for code in codes if not catalogue.has("ja", f"{family}.{code}")]
    assert missing == []


def test_a_message_is_filled_in() -> None:
    assert say("ja", "refusal.nothing_to_refund", order_ref="ご注文 ORD-4003") == (
        "ご注文 ORD-4003には、返金できる金額が残っておりません。"
    )
    assert say("en", "order.named", number="ORD-4003") == "order ORD-4003"


def test_a_missing_key_fails_loudly() -> None:
    with pytest.raises(CatalogueError, match=r"reply\.no_such_sentence"):
        say("ja", "reply.no_such_sentence")


def test_a_missing_placeholder_fails_loudly() -> None:
    with pytest.raises(CatalogueError, match=r"missing \['order_ref'\]"):
        say("en", "refusal.nothing_to_refund")


def test_a_field_the_template_does_not_use_fails_loudly() -> None:
    with pytest.raises(CatalogueError, match=r"unexpected \['amount'\]"):
        say("en", "order.unnamed", amount="¥100")


def test_say_from_takes_only_what_the_template_uses() -> None:
    fields = {"order_ref": "order ORD-4003", "tool": "the refund"}
    assert catalogue.say_from("en", "refusal.nothing_to_refund", fields) == (
        "There is no amount left to refund on order ORD-4003."
    )


@pytest.mark.parametrize(
    ("language", "default", "expected"),
    [
        ("ja", "en", "ja"),
        ("ja-JP", "en", "ja"),
        ("en", "ja", "en"),
        ("fr", "en", "en"),
        ("", "ja", "ja"),
    ],
)
def test_a_language_is_spoken_or_the_default(language: str, default: str, expected: str) -> None:
    assert catalogue.spoken(language, default=default) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_replys_gist_is_it_without_its_greeting_and_closing(language: Language) -> None:
    body = "Line one.\n\nLine two."
    framed = "\n\n".join([say(language, "reply.greeting"), body, say(language, "reply.closing")])

    assert without_frame(framed) == body
    assert without_frame(say(language, "reply.greeting")) == say(language, "reply.greeting")
    assert without_frame("Just this.") == "Just this."
