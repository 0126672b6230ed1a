"""The offline model flags a complaint about the shop (issue 25: a complaint's reply is a
draft a person sends). It leans to recall, but a plain request or a product's fault alone is no
complaint, and neither is a joke asked for."""

from __future__ import annotations

import pytest

from agents.providers.offline.understanding.classifier import classify_text
from agents.providers.offline.understanding.complaint import complaint_suspected
from agents.providers.offline.understanding.typos import prepare

COMPLAINTS = [
    "Honestly this is unacceptable, third time I'm writing about the same parcel.",
    "Your customer service is terrible and nobody reads my emails.",
    "I'm fed up with waiting, I will never order from you again.",
    "I want to make a complaint about how my order was handled.",
    "What a joke of a shop.",
    "Let me speak to your manager please",
    "How many times do I have to ask for my refund?",
    "本当にひどい対応ですね",
    "何度も問い合わせているのに返事がないのはひどいです",
    "対応が遅すぎて本当にがっかりしました",
    "もう二度と利用しません。最悪の対応でした。",
    "苦情を申し上げたいのですが",
]

REQUESTS = [
    "Where is my parcel? It was meant to arrive yesterday.",
    "The mug arrived broken, can I return it?",
    "Tell me a joke",
    "Could you cancel ORD-1234 please?",
    "I never received a receipt for my last order",
    "荷物はいつ届きますか",
    "How many times can I change the delivery date?",
    "ひどい雨ですが配達は遅れますか",
    "届いたマグカップが割れていました。返品できますか",
    "領収書を発行してください",
]


@pytest.mark.parametrize("text", COMPLAINTS)
def test_a_complaint_is_flagged(text: str) -> None:
    assert complaint_suspected(prepare(text))


@pytest.mark.parametrize("text", REQUESTS)
def test_a_request_or_a_fault_alone_is_no_complaint(text: str) -> None:
    assert not complaint_suspected(prepare(text))


def test_the_reading_carries_the_flag() -> None:
    assert classify_text("This is outrageous, where is my order?").complaint
    assert not classify_text("Where is my order?").complaint
