"""The canned-reply library as managers keep it in the console: create, edit, retire, restore.

Operators pick from the active replies in the composer (``console.selectors``); managers keep
the library here. A retired reply is no longer offered but stays, so the audit trail's ids
still name something. Every change is audited (which reply, which language, what changed;
never the wording, which the content guard keeps out of the log).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from netshop.audit import AuditAction, audit_record
from netshop.errors import DomainError
from netshop.text import shows_nothing, unstorable
from operators.models import CannedReply

TITLE_MAX: Final = 120  # ``CannedReply.title``'s length
BODY_MAX: Final = 5000  # as long as the longest message an operator may send

Change = Literal["created", "edited", "retired", "restored"]


@dataclass(frozen=True)
class CannedReplyFields:
    """What a manager writes of one reply."""

    title: str
    language: str
    body: str


def canned_reply_create(*, fields: CannedReplyFields, user: User) -> CannedReply:
    """A new active reply; refused (nothing written) when a field is blank, too long, the
    language unknown, or another active reply of that language has the title."""
    with transaction.atomic():
        clean = _validated(fields, exclude=None)
        reply = CannedReply.objects.create(
            title=clean.title, language=clean.language, body=clean.body
        )
        _audit(reply, change="created", changed=["title", "language", "body"], user=user)
    return reply


def canned_reply_update(*, reply_id: int, fields: CannedReplyFields, user: User) -> CannedReply:
    """The reply rewritten (same checks as a new one); a save that changes nothing writes
    nothing, not even to the audit log."""
    with transaction.atomic():
        reply = _locked(reply_id)
        clean = _validated(fields, exclude=reply)
        changed = [
            name
            for name in ("title", "language", "body")
            if getattr(reply, name) != getattr(clean, name)
        ]
        if not changed:
            return reply
        reply.title, reply.language, reply.body = clean.title, clean.language, clean.body
        reply.save(update_fields=[*changed, "updated_at"])
        _audit(reply, change="edited", changed=changed, user=user)
    return reply


def canned_reply_set_active(*, reply_id: int, active: bool, user: User) -> CannedReply:
    """Retire a reply (no longer offered to operators) or restore it; idempotent."""
    with transaction.atomic():
        reply = _locked(reply_id)
        if reply.active == active:
            return reply
        if active:
            _refuse_taken_title(reply.language, reply.title, exclude=reply)
        reply.active = active
        reply.save(update_fields=["active", "updated_at"])
        _audit(reply, change="restored" if active else "retired", changed=["active"], user=user)
    return reply


def _locked(reply_id: int) -> CannedReply:
    reply = CannedReply.objects.select_for_update().filter(pk=reply_id).first()
    if reply is None:
        raise DomainError("canned_reply_not_found")
    return reply


def _validated(fields: CannedReplyFields, *, exclude: CannedReply | None) -> CannedReplyFields:
    title, body = fields.title.strip(), fields.body.strip()
    if fields.language not in dict(settings.LANGUAGES):
        raise DomainError("unknown_language", language=repr(fields.language))
    if shows_nothing(title) or unstorable(title):
        raise DomainError("canned_reply_blank", variant="title")
    if shows_nothing(body) or unstorable(body):
        raise DomainError("canned_reply_blank", variant="body")
    if len(title) > TITLE_MAX:
        raise DomainError("canned_reply_too_long", variant="title", longest=TITLE_MAX)
    if len(body) > BODY_MAX:
        raise DomainError("canned_reply_too_long", variant="body", longest=BODY_MAX)
    _refuse_taken_title(fields.language, title, exclude=exclude)
    return CannedReplyFields(title=title, language=fields.language, body=body)


def _refuse_taken_title(language: str, title: str, *, exclude: CannedReply | None) -> None:
    """Two active replies of one language with one title would be one entry twice in the
    composer's list, and the operator could not tell which is which."""
    taken = CannedReply.objects.filter(active=True, language=language, title__iexact=title)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise DomainError("canned_reply_title_taken", title=title)


def _audit(reply: CannedReply, *, change: Change, changed: list[str], user: User) -> None:
    audit_record(
        action=AuditAction.CANNED_REPLY_CHANGED,
        actor=user.get_username(),
        data={
            "canned_reply_id": reply.pk,
            "language": reply.language,
            "change": change,
            "fields": changed,
        },
    )


@dataclass(frozen=True)
class LanguageShelf:
    """One language's replies: the active ones by title, then the retired."""

    language: str
    active: list[CannedReply]
    retired: list[CannedReply]


def canned_reply_library() -> list[LanguageShelf]:
    """The whole library, one shelf per language the console speaks (one query)."""
    replies = list(CannedReply.objects.order_by("language", "title", "pk"))
    return [
        LanguageShelf(
            language=code,
            active=[r for r in replies if r.language == code and r.active],
            retired=[r for r in replies if r.language == code and not r.active],
        )
        for code in sorted(dict(settings.LANGUAGES), key=lambda code: code != "ja")
    ]
