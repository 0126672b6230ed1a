"""Where a storefront's webhooks go and what signs them: set by the command or the admin,
validated as http(s), the secret shown once and rotatable.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from netshop.models import ApiToken, WebhookDelivery
from netshop.webhooks.models import DeliveryStatus, WebhookEvent
from netshop.webhooks.receivers import validate_callback_url
from tests.netshop.webhooks.conftest import Handed, storefront_token

pytestmark = pytest.mark.django_db


def create_api_token(*args: str) -> tuple[list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_token", *args, stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue()


def test_a_token_with_a_callback_url_prints_its_key_then_its_secret_once() -> None:
    (key, secret), advice = create_api_token("shop", "--callback-url", "https://shop.example/hook")

    token = ApiToken.objects.get(name="shop")
    assert token.key_digest == ApiToken.digest(key)
    assert (token.callback_url, token.webhook_secret) == ("https://shop.example/hook", secret)
    assert secret.startswith("whsec_")
    assert len(secret) > 40
    assert secret not in advice


@pytest.mark.parametrize(
    "url",
    [
        "ftp://shop.example/hook",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "shop.example/hook",
        "https://user:pw@shop.example/hook",
    ],
)
def test_a_callback_url_must_be_plain_http_or_https(url: str) -> None:
    with pytest.raises(CommandError, match="Invalid --callback-url"):
        create_api_token("shop", "--callback-url", url)

    assert not ApiToken.objects.exists()


def test_a_staff_members_token_hears_no_webhooks() -> None:
    User.objects.create_user("op")
    with pytest.raises(CommandError, match="without --user"):
        create_api_token("op-token", "--user", "op", "--callback-url", "https://shop.example/h")


def test_rotating_the_secret_prints_a_new_one_and_the_old_one_stops_signing() -> None:
    (_, old), _ = create_api_token("shop", "--callback-url", "https://shop.example/hook")

    [new], _ = create_api_token("shop", "--rotate-webhook-secret")

    assert new != old
    assert ApiToken.objects.get(name="shop").webhook_secret == new


def test_the_validator_accepts_http_and_https() -> None:
    validate_callback_url("http://127.0.0.1:8080/hooks")
    validate_callback_url("https://shop.example/hooks?x=1")


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="x"))
    return client


def test_the_admin_sets_a_callback_url_and_shows_the_new_secret_once(admin_client: Client) -> None:
    token, _ = storefront_token("")
    page = f"/admin/netshop/apitoken/{token.pk}/change/"

    refused = admin_client.post(page, {"callback_url": "ftp://shop.example/hook"})
    saved = admin_client.post(page, {"callback_url": "https://shop.example/hook"}, follow=True)
    again = admin_client.get(page)

    token.refresh_from_db()
    assert refused.status_code == 200  # the form again, with its error
    assert token.callback_url == "https://shop.example/hook"
    assert token.webhook_secret.startswith("whsec_")
    assert token.webhook_secret in saved.content.decode()
    assert token.webhook_secret not in again.content.decode()


def test_the_delivery_log_lists_filters_and_retries_now(
    admin_client: Client, handed: list[Handed], django_capture_on_commit_callbacks: Any
) -> None:
    token, _ = storefront_token("https://shop.example/hook")
    failed = WebhookDelivery.objects.create(
        token=token,
        event=WebhookEvent.RESOLVED,
        payload={"reply": "クーポン SORRY-ABCD2345EF をどうぞ"},
        status=DeliveryStatus.FAILED,
        attempts=7,
        last_status_code=500,
    )
    WebhookDelivery.objects.create(
        token=token, event=WebhookEvent.REPLIED, payload={}, status=DeliveryStatus.DELIVERED
    )

    listing = admin_client.get("/admin/netshop/webhookdelivery/", {"status__exact": "failed"})
    detail = admin_client.get(f"/admin/netshop/webhookdelivery/{failed.pk}/change/")
    with django_capture_on_commit_callbacks(execute=True):
        retried = admin_client.post(
            "/admin/netshop/webhookdelivery/",
            {"action": "retry_now", "_selected_action": [str(failed.pk)]},
        )

    failed.refresh_from_db()
    assert listing.status_code == detail.status_code == 200
    assert listing.context["cl"].result_count == 1
    assert "SORRY-ABCD2345EF" not in detail.content.decode()  # the customer's code alone
    assert retried.status_code == 302
    assert (failed.status, failed.attempts) == (DeliveryStatus.PENDING, 7)
    assert handed == [Handed(str(failed.pk), 0.0)]


def test_the_delivery_log_is_read_only(admin_client: Client) -> None:
    token, _ = storefront_token("https://shop.example/hook")
    delivery = WebhookDelivery.objects.create(token=token, event=WebhookEvent.REPLIED, payload={})

    page = admin_client.post(
        f"/admin/netshop/webhookdelivery/{delivery.pk}/change/", {"status": "delivered"}
    )

    delivery.refresh_from_db()
    assert page.status_code == 403
    assert delivery.status == DeliveryStatus.PENDING


def test_a_staff_members_token_has_no_callback_url_to_set(admin_client: Client) -> None:
    user = User.objects.create_user("op")
    token = ApiToken.objects.create(name="op-token", key_digest="d" * 64, prefix="p", user=user)
    page = f"/admin/netshop/apitoken/{token.pk}/change/"

    admin_client.post(page, {"callback_url": "https://shop.example/hook"})

    token.refresh_from_db()
    assert (token.callback_url, token.webhook_secret) == ("", "")
