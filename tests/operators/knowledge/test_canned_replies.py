"""The canned-reply library in the console (issue 27, part 5): managers add, edit, retire and
restore replies in both languages, every change audited; operators use the active ones in
the composer and may not edit the library; a refused form loses nothing typed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from netshop.audit.models import AuditEntry
from netshop.roles import Role
from operators.console.selectors import canned_replies_for
from operators.models import CannedReply
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.knowledge.factories import CannedReplyFactory

pytestmark = pytest.mark.django_db

LIBRARY = "/knowledge/canned-replies/"


def audited() -> list[tuple[str, dict[str, Any]]]:
    return [
        (e.actor, e.data)
        for e in AuditEntry.objects.filter(action="canned_reply.changed").order_by("pk")
    ]


def test_a_manager_adds_a_reply_in_each_language_and_operators_are_offered_it(
    client: Client,
) -> None:
    client.post(
        LIBRARY, {"title": "配送の遅れ", "language": "ja", "body": "ご迷惑をおかけしております。"}
    )
    client.post(LIBRARY, {"title": "Late delivery", "language": "en", "body": "We are sorry."})

    assert [r.title for r in canned_replies_for(language="ja")] == ["配送の遅れ"]
    assert [r.title for r in canned_replies_for(language="en")] == ["Late delivery"]
    ja, en = CannedReply.objects.order_by("language").reverse()
    assert audited() == [
        (
            "kanrisha",
            {
                "canned_reply_id": ja.pk,
                "language": "ja",
                "change": "created",
                "fields": ["title", "language", "body"],
            },
        ),
        (
            "kanrisha",
            {
                "canned_reply_id": en.pk,
                "language": "en",
                "change": "created",
                "fields": ["title", "language", "body"],
            },
        ),
    ]


def test_the_library_lists_each_language_with_its_retired_replies_last(
    client: Client, django_assert_num_queries: Any
) -> None:
    CannedReplyFactory.create(title="お詫び", language="ja")
    CannedReplyFactory.create(title="住所の確認", language="ja", active=False)
    CannedReplyFactory.create(title="Apology", language="en")

    with django_assert_num_queries(5):  # session, user, preference, roles; the library
        page = client.get(LIBRARY).content.decode()

    ja = page[page.index('id="canned-ja"') : page.index('id="canned-en"')]
    en = page[page.index('id="canned-en"') : page.index('id="canned-new"')]
    assert ja.index("お詫び") < ja.index("住所の確認")
    assert "retired" in ja[ja.index("住所の確認") :]
    assert "Apology" in en


def test_an_edit_is_saved_and_audited_with_the_fields_it_changed(client: Client) -> None:
    reply = CannedReplyFactory.create(title="お詫び", body="申し訳ございません。")

    response = client.post(
        f"{LIBRARY}{reply.pk}/",
        {"title": "お詫び", "language": "ja", "body": "大変申し訳ございません。"},
    )

    assert response.status_code == 302
    reply.refresh_from_db()
    assert reply.body == "大変申し訳ございません。"
    assert audited() == [
        (
            "kanrisha",
            {"canned_reply_id": reply.pk, "language": "ja", "change": "edited", "fields": ["body"]},
        )
    ]


def test_a_save_that_changes_nothing_writes_nothing(client: Client) -> None:
    reply = CannedReplyFactory.create(title="お詫び", body="申し訳ございません。")

    client.post(
        f"{LIBRARY}{reply.pk}/",
        {"title": "お詫び", "language": "ja", "body": "申し訳ございません。"},
    )

    assert audited() == []


def test_a_retired_reply_is_no_longer_offered_and_can_be_restored(client: Client) -> None:
    reply = CannedReplyFactory.create(title="お詫び")

    client.post(f"{LIBRARY}{reply.pk}/active", {"active": "0"})
    offered_while_retired = canned_replies_for(language="ja")
    client.post(f"{LIBRARY}{reply.pk}/active", {"active": "1"})

    assert offered_while_retired == []
    assert canned_replies_for(language="ja") == [reply]
    assert [data["change"] for _, data in audited()] == ["retired", "restored"]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ({"title": "  ", "language": "ja", "body": "本文"}, "The title is blank."),
        ({"title": "件名", "language": "ja", "body": "\u200b"}, "The text is blank."),
        ({"title": "件名" * 61, "language": "ja", "body": "本文"}, "longer than 120 characters"),
        ({"title": "件名", "language": "fr", "body": "本文"}, "No such language"),
        ({"title": "お詫び", "language": "ja", "body": "本文"}, "is called “お詫び”"),
    ],
)
def test_a_refused_reply_is_shown_again_as_typed_and_nothing_is_written(
    client: Client, typed: dict[str, str], message: str
) -> None:
    CannedReplyFactory.create(title="お詫び")

    response = client.post(LIBRARY, typed)

    assert response.status_code == 422
    page = response.content.decode()
    assert message in page
    assert f"{typed['body']}</textarea>" in page  # what the manager wrote is still there
    assert CannedReply.objects.count() == 1
    assert audited() == []


def test_a_refused_edit_keeps_the_reply_and_what_was_typed(client: Client) -> None:
    CannedReplyFactory.create(title="お詫び")
    reply = CannedReplyFactory.create(title="住所", body="元の本文")

    response = client.post(
        f"{LIBRARY}{reply.pk}/", {"title": "お詫び", "language": "ja", "body": "新しい本文"}
    )

    assert response.status_code == 422
    assert "新しい本文" in response.content.decode()
    reply.refresh_from_db()
    assert (reply.title, reply.body) == ("住所", "元の本文")


def test_the_pages_speak_japanese_to_a_japanese_manager(client: Client) -> None:
    CannedReplyFactory.create(title="お詫び", active=False)

    with translation.override("ja"):
        page = client.get(LIBRARY, headers={"accept-language": "ja"}).content.decode()

    assert "定型文" in page
    assert "日本語" in page
    assert "再開" in page


def test_an_operator_may_use_but_not_edit_the_library() -> None:
    reply = CannedReplyFactory.create(title="お詫び")
    operator = signed_in(staff_user("tantousha", Role.OPERATOR))

    refused = [
        operator.get(LIBRARY).status_code,
        operator.post(LIBRARY, {"title": "x", "language": "ja", "body": "y"}).status_code,
        operator.post(
            f"{LIBRARY}{reply.pk}/", {"title": "x", "language": "ja", "body": "y"}
        ).status_code,
        operator.post(f"{LIBRARY}{reply.pk}/active", {"active": "0"}).status_code,
    ]

    assert refused == [403, 403, 403, 403]
    assert canned_replies_for(language="ja") == [reply]
    assert audited() == []


def test_an_unknown_reply_is_404(client: Client) -> None:
    assert client.get(f"{LIBRARY}999999/").status_code == 404
    assert client.post(f"{LIBRARY}999999/active", {"active": "0"}).status_code == 404
