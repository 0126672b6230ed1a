"""Factories for what managers keep in the console."""

from __future__ import annotations

import factory

from operators.models import CannedReply


class CannedReplyFactory(factory.django.DjangoModelFactory[CannedReply]):
    class Meta:
        model = CannedReply

    title = factory.Sequence(lambda n: f"返答{n}")
    language = "ja"
    body = "お問い合わせありがとうございます。"
