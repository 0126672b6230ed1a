"""Read marks: what each member of staff has read of a conversation, for the inbox's unread
rows. Opening a conversation, or its thread re-read live, marks it read for that person."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils import timezone

from operators.models import ConversationRead


def conversation_read_mark(*, user: Any, inquiry_id: UUID | str) -> None:
    """``user`` has read the conversation up to now (one upsert)."""
    ConversationRead.objects.bulk_create(
        [ConversationRead(user=user, inquiry_id=inquiry_id, read_at=timezone.now())],
        update_conflicts=True,
        unique_fields=["user", "inquiry"],
        update_fields=["read_at"],
    )
