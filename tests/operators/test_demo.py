"""The console's demo data: canned replies in both languages, added by ``seed_demo``.

Given an empty shop, when the demo is seeded, then the composer has canned replies in
Japanese and English; seeded again, nothing is added twice, and a manager's edit stays.
"""

from __future__ import annotations

import pytest

from netshop.demo import seed_demo
from operators.demo import DEMO_CANNED_REPLIES
from operators.models import CannedReply

pytestmark = pytest.mark.django_db


def test_the_demo_has_canned_replies_in_both_languages_once() -> None:
    first = seed_demo(password="demo-pass")
    edited = CannedReply.objects.get(language="en", title="Looking into it")
    edited.body = "Our own wording."
    edited.save(update_fields=["body"])

    again = seed_demo(password="demo-pass")

    assert first.created["CannedReply"] == len(DEMO_CANNED_REPLIES)
    assert "CannedReply" not in again.created
    assert set(CannedReply.objects.values_list("language", flat=True)) == {"ja", "en"}
    assert CannedReply.objects.count() == len(DEMO_CANNED_REPLIES)
    assert CannedReply.objects.get(pk=edited.pk).body == "Our own wording."
