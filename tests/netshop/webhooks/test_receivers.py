"""Where a storefront's webhooks go and what signs them: set by the command or the admin,
validated as http(s) to a public address (unless private ones are allowed), the secret shown
once and rotatable.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client

from netshop.models import ApiToken, WebhookDelivery
from netshop.webhooks.models import DeliveryStatus, WebhookEvent
from netshop.webhooks.receivers import validate_callback_url
from tests.netshop.webhooks.conftest import Handed, storefront_token
from tests.support.fake_dns import FakeDns

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.215.14"
PUBLIC6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"


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


def test_the_validator_accepts_http_and_https(dns: FakeDns) -> None:
    dns.answer("shop.example", PUBLIC)

    validate_callback_url("http://93.184.215.14:8080/hooks")
    validate_callback_url("https://shop.example/hooks?x=1")
    validate_callback_url(f"https://[{PUBLIC6}]/hooks")


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://127.0.0.1:8080/hooks", "127.0.0.1"),
        ("http://[::1]:8080/hooks", "::1"),
        ("http://localhost:8000/hooks", "localhost"),
        ("http://0.0.0.0/hooks", "0.0.0.0"),  # noqa: S104 (refused, not bound)
        ("http://10.1.2.3/hooks", "10.1.2.3"),
        ("http://172.16.0.1/hooks", "172.16.0.1"),
        ("http://172.31.255.254/hooks", "172.31.255.254"),
        ("http://192.168.1.10/hooks", "192.168.1.10"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("http://100.64.0.1/hooks", "100.64.0.1"),
        ("http://[fc00::1]/hooks", "fc00::1"),
        ("http://[fd12:3456::1]/hooks", "fd12:3456::1"),
        ("http://[fe80::1]/hooks", "fe80::1"),
        ("http://[::ffff:7f00:1]/hooks", "::ffff:7f00:1"),
    ],
)
def test_a_callback_url_to_an_internal_address_is_refused(url: str, host: str) -> None:
    with pytest.raises(ValidationError) as refused:
        validate_callback_url(url)

    assert refused.value.messages == [
        f"Webhooks may not go to {host}: it is not a public address (loopback, private, "
        "link-local or otherwise internal). NETSHOP_WEBHOOK_ALLOW_PRIVATE allows one on a "
        "development machine."
    ]


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/hooks",
        "http://0x7f.1/hooks",
        "http://0177.0.0.1/hooks",
        "http://017700000001/hooks",
        "http://127.1/hooks",
        "http://[::ffff:127.0.0.1]/hooks",
        "http://[::ffff:a9fe:a9fe]/hooks",  # 169.254.169.254
    ],
)
def test_an_internal_address_in_another_spelling_is_refused(url: str) -> None:
    with pytest.raises(ValidationError):
        validate_callback_url(url)


@pytest.mark.parametrize(
    ("answers", "address"),
    [
        (["127.0.0.1"], "127.0.0.1"),
        (["169.254.169.254"], "169.254.169.254"),
        (["10.0.0.5"], "10.0.0.5"),
        (["fd00::5"], "fd00::5"),
        ([PUBLIC, "192.168.0.7"], "192.168.0.7"),
    ],
)
def test_a_callback_url_whose_name_resolves_to_an_internal_address_is_refused(
    answers: list[str], address: str, dns: FakeDns
) -> None:
    dns.answer("hooks.shop.test", *answers)

    with pytest.raises(ValidationError) as refused:
        validate_callback_url("https://hooks.shop.test/netshop")

    assert refused.value.messages == [
        f"Webhooks may not go to hooks.shop.test: it resolves to {address}, which is not a "
        "public address (loopback, private, link-local or otherwise internal). "
        "NETSHOP_WEBHOOK_ALLOW_PRIVATE allows one on a development machine."
    ]


def test_a_callback_url_whose_name_resolves_to_nothing_yet_is_accepted(dns: FakeDns) -> None:
    validate_callback_url("https://not-yet.shop.test/netshop")  # every attempt checks again

    assert dns.calls == ["not-yet.shop.test"]


def test_internal_addresses_are_accepted_when_the_setting_allows_them(settings: Any) -> None:
    settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE = True

    validate_callback_url("http://127.0.0.1:8080/hooks")
    validate_callback_url("http://localhost:8000/hooks")
    validate_callback_url("http://192.168.1.10/hooks")


def test_the_command_refuses_a_callback_url_to_an_internal_address() -> None:
    with pytest.raises(CommandError) as refused:
        create_api_token("shop", "--callback-url", "http://169.254.169.254/latest/meta-data/")

    assert str(refused.value) == (
        "Invalid --callback-url 'http://169.254.169.254/latest/meta-data/': Webhooks may not go "
        "to 169.254.169.254: it is not a public address (loopback, private, link-local or "
        "otherwise internal). NETSHOP_WEBHOOK_ALLOW_PRIVATE allows one on a development machine."
    )
    assert not ApiToken.objects.exists()


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


def test_the_admin_refuses_a_callback_url_to_an_internal_address(
    admin_client: Client, dns: FakeDns
) -> None:
    dns.answer("hooks.shop.test", "10.0.0.5")
    token, _ = storefront_token("")
    page = f"/admin/netshop/apitoken/{token.pk}/change/"

    refused = admin_client.post(page, {"callback_url": "https://hooks.shop.test/netshop"})

    token.refresh_from_db()
    assert refused.status_code == 200  # the form again, with its error
    assert refused.context["adminform"].form.errors["callback_url"] == [
        "Webhooks may not go to hooks.shop.test: it resolves to 10.0.0.5, which is not a "
        "public address (loopback, private, link-local or otherwise internal). "
        "NETSHOP_WEBHOOK_ALLOW_PRIVATE allows one on a development machine."
    ]
    assert (token.callback_url, token.webhook_secret) == ("", "")


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
