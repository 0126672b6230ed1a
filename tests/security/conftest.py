"""The security suite's shop: ``support_shop`` built once, committed, and shared by every test.

Building the shop and its logins takes a while, and much of this suite needs it committed:
the graph's worker threads and the socket consumers read it on connections of their own. So the
package builds it once (``committed_shop``) and flushes the database when the package is done, as
``TransactionTestCase`` does after each test. Tests take one of two shapes:

* HTTP tests use ``shop`` (pytest-django's ``db``): each runs in a transaction rolled back
  afterwards, so the claims and decisions one test posts are gone for the next;
* socket and agent tests use ``live_shop``: no wrapping transaction, because
  ``database_sync_to_async`` and the graph's threads must see committed rows. They only add
  rows (inquiries, escalations, sessions) and never approve anything, so the shared data
  stays as built; a test that changes a shared row puts it back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from axes import models as axes_models
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.backends.base.creation import TEST_DATABASE_PREFIX
from django.test import Client
from django.test.utils import override_settings, setup_databases, teardown_databases
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils import timezone
from pytest_django import DjangoDbBlocker, Settings

from agents.models import Escalation, Inquiry, MessageAuthor
from agents.simulation.services import run_create, suite_store
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.messages import message_store
from agents.team.runs.checkpointer import close_checkpointer
from agents.team.runs.driver import inquiry_run
from agents.team.runs.lease import close_lease_connection
from agents.team.runs.outcome import RunOutcome
from netshop import models as m
from netshop.audit.models import AuditEntry
from netshop.roles import Role, role_assign
from netshop.services.receipts import receipt_issue
from operators.models import CannedReply
from tests.factories import CustomerFactory, help_article
from tests.operators.api_helpers import escalation_for, storefront_key, token_of
from tests.support.channel_layers import use_redis_channel_layer
from tests.support.reviews import answer_grounds
from tests.support.scenarios import SCENARIO_PREFIX, SupportShop, support_shop

PASSWORD = "security-suite-password"
CALLERS = ("anonymous", "token", "customer", "operator", "manager")
LOGINS = {
    "customer": "hanako",
    "other_customer": "emily",
    "operator": "operator",
    "manager": "manager",
}
FORBIDDEN_CLOSE = 4403
SIGNED_OUT_CLOSE = 4401


@dataclass(frozen=True)
class Shop:
    """The shared shop's callers and objects: ``orders`` is ``support_shop``'s Hanako (the
    ``customer`` login) and Emily (``other_customer``); ``storefront_key`` a live token's key."""

    storefront_key: str
    orders: SupportShop

    def user(self, who: str) -> User:
        """``customer`` (Hanako), ``other_customer`` (Emily), ``operator`` or ``manager``."""
        return User.objects.get(username=LOGINS[who])

    def fill(self, text: str) -> str:
        """``text`` with ``{hanako_delivered}``-style placeholders filled in: each shopper's
        order numbers by role, ``{hanako_code}`` and ``{hanako_tracking}`` (her parcel in
        transit)."""
        values = {
            f"{name}_{role}": number
            for name in ("hanako", "emily")
            for role, number in self.orders.shopper(name).numbers().items()
        }
        values |= {f"{name}_code": self.customer(name).code for name in ("hanako", "emily")}
        values["hanako_tracking"] = self.orders.hanako.in_transit.shipment.tracking_number
        return text.format(**values)

    def customer(self, name: str) -> m.Customer:
        """``"hanako"`` or ``"emily"``."""
        return self.orders.shopper(name).customer

    def client(self, who: str, *, enforce_csrf: bool = False) -> Client:
        """A test client for one of ``CALLERS`` (or ``other_customer``)."""
        client = Client(enforce_csrf_checks=enforce_csrf)
        if who == "token":
            client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {self.storefront_key}"
        elif who != "anonymous":
            client.force_login(self.user(who))
        return client

    def inquiry(
        self,
        customer: str = "hanako",
        text: str = "{hanako_delivered}が壊れていました",
        *,
        submitted: bool = False,
    ) -> Inquiry:
        """An inquiry of ``"hanako"`` or ``"emily"``, its ``text`` filled (``fill``);
        ``submitted``: by the suite's storefront token (the only conversations it reaches),
        else as on the help page."""
        return inquiry_create(
            customer=self.customer(customer),
            text=self.fill(text),
            start=False,
            storefront_token=token_of(self.storefront_key) if submitted else None,
        )

    def escalation(self, customer: str = "hanako") -> Escalation:
        return escalation_for(self.inquiry(customer))


@pytest.fixture(scope="session")
def test_database(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """The test database, even when no collected test is marked for it.

    pytest-django creates it only for the aliases the collected tests' ``django_db`` markers
    (or ``db`` fixtures) ask for; ``live_shop`` tests have neither, so a run selecting only
    them would otherwise talk to the configured, non-test database.
    """
    if connection.settings_dict["NAME"].startswith(TEST_DATABASE_PREFIX):
        yield
        return
    with django_db_blocker.unblock():
        aliases = {DEFAULT_DB_ALIAS: False}  # alias -> serialize, as Django's runner passes them
        config = setup_databases(verbosity=0, interactive=False, aliases=aliases)
    yield
    close_checkpointer()  # its pool's connections would keep the database from being dropped
    close_lease_connection()
    with django_db_blocker.unblock():
        teardown_databases(config, verbosity=0)


def _logins(orders: SupportShop) -> None:
    """The suite's logins, all with ``PASSWORD``: Hanako and Emily for their help pages, an
    operator and a manager."""
    for username, role in (("operator", Role.OPERATOR), ("manager", Role.MANAGER)):
        user = User.objects.create_user(username, f"{username}@netshop.example", PASSWORD)
        role_assign(user=user, role=role)
    for username, customer in (
        ("hanako", orders.hanako.customer),
        ("emily", orders.emily.customer),
    ):
        customer.user = User.objects.create_user(username, customer.email, PASSWORD)
        customer.save(update_fields=["user"])


@pytest.fixture(scope="package")
def committed_shop(test_database: None, django_db_blocker: DjangoDbBlocker) -> Iterator[Shop]:
    with django_db_blocker.unblock():
        hashers = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        with override_settings(PASSWORD_HASHERS=hashers):
            orders = support_shop()
            _logins(orders)
            shop = Shop(storefront_key=storefront_key("security-suite"), orders=orders)
        try:
            yield shop
        finally:
            # As TransactionTestCase leaves it: empty tables, content types and permissions.
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def shop(committed_shop: Shop, db: None) -> Shop:
    """The shared shop inside a transaction rolled back after the test."""
    return committed_shop


@pytest.fixture
def live_shop(
    committed_shop: Shop, django_db_blocker: DjangoDbBlocker, settings: Settings
) -> Iterator[Shop]:
    """The shared shop with committed writes, for sockets and graph runs."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    use_redis_channel_layer(settings)
    with django_db_blocker.unblock():
        yield committed_shop


@pytest.fixture
def ask(live_shop: Shop) -> Callable[..., RunOutcome]:
    """Run one inquiry for a customer through the real graph (offline model), in process."""

    def run(text: str, *, customer: str = "emily") -> RunOutcome:
        return inquiry_run(inquiry=live_shop.inquiry(customer, text))

    return run


@pytest.fixture
def quiet_refusals(caplog: pytest.LogCaptureFixture) -> None:
    """Expected 403s and 404s each log a warning with a traceback; 5xx errors still show."""
    caplog.set_level("ERROR", logger="django.request")


# --- Every URL pattern, with real objects in its path ----------------------------------------


def url_routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[str]:
    """Every URL pattern's full route, as ``ResolverMatch.route`` spells it."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from url_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern)


def websocket_routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[str]:
    from netshop.asgi import websocket_urlpatterns

    for pattern in websocket_urlpatterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from websocket_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")
# Paths for the patterns that are regular expressions rather than routes.
REGEX_PATHS = {
    "admin/^(?P<app_label>auth|axes|netshop|operators)/$": "/admin/netshop/",
    "admin/(?P<url>.*)$": "/admin/nowhere/",
}


SIMULATION_CASE = json.dumps(
    {
        "id": "security-case",
        "customer": "C0002",
        "lang": "en",
        "turns": [
            {"text": "Which payment methods do you accept?", "expected_status": ["resolved"]}
        ],
    }
)


class RoutePaths:
    """Concrete paths for routes, their parameters filled with real objects of the shop."""

    def __init__(self, shop: Shop) -> None:
        self.shop = shop
        # Submitted by the suite's storefront, so the token's rows show what it may do with
        # its own conversations (another's is 404: ``test_customer_scoping``).
        self.inquiry = shop.inquiry("hanako", submitted=True)
        self.escalation = shop.escalation("hanako")
        self.receipt_number = _receipt_number(self.inquiry, shop.orders.hanako.delivered)
        # An AI answer in the conversation: what the customer's feedback routes are about.
        self.ai_answer = message_store(
            inquiry=self.inquiry,
            author_kind=MessageAuthor.AI,
            text="ご連絡ありがとうございます。",
            channel="web",
            grounds=answer_grounds("search_faq"),
        )
        support_records(shop.orders)
        # A stored simulation suite and a run of it: the simulation pages' objects.
        self.suite = suite_store(name="security", content=SIMULATION_CASE)
        self.simulation_run = run_create(suite=self.suite)
        # An operator's answer (what "Suggest as article" takes; in a conversation of its
        # own, so the matrix's stays the AI's alone), an article, a canned reply.
        self.operator_answer = message_store(
            inquiry=shop.inquiry("hanako"),
            author_kind=MessageAuthor.OPERATOR,
            author=shop.user("operator"),
            text="ギフト包装を承ります。",
            channel="web",
        )
        self.article = help_article(title="ギフト包装", body="承ります。", key="security-article")
        self.canned_reply = CannedReply.objects.get(title="Apology")

    def __call__(self, route: str, *, fresh: bool = False) -> str:
        """``fresh``: a new escalation, so that one call's claim never makes another's 409."""
        if route in REGEX_PATHS:
            return REGEX_PATHS[route]
        values: dict[str, Callable[[], object]] = {
            "escalation_id": lambda: (self.shop.escalation() if fresh else self.escalation).pk,
            "inquiry_id": lambda: self.inquiry.pk,
            "object_id": lambda: self._object_id(route),
            "content_type_id": lambda: ContentType.objects.get_for_model(m.Customer).pk,
            "id": lambda: self.shop.user("operator").pk,
            "uidb64": lambda: "MQ",
            "token": lambda: "set-password",
            "number": lambda: self.receipt_number,
            "suite_id": lambda: self.suite.pk,
            "case_id": lambda: "security-case",
            "run_id": lambda: self.simulation_run.pk,
            "message_id": lambda: (
                (self.operator_answer if route.startswith("knowledge/") else self.ai_answer).pk
            ),
            "article_id": lambda: self.article.article_id,
            "reply_id": lambda: self.canned_reply.pk,
            "language": lambda: "ja",
        }
        path = "/" + PARAMETER.sub(lambda found: str(values[found[1]]()), route)
        assert resolve(path).route == route, f"{path} does not resolve to {route}"
        return path

    def _object_id(self, route: str) -> object:
        found = re.match(r"admin/(\w+)/(\w+)/", route)
        model = apps.get_model(found[1], found[2]) if found else m.Customer
        return model._default_manager.order_by("pk").values_list("pk", flat=True).first()


def _receipt_number(inquiry: Inquiry, order: m.Order) -> str:
    """A receipt issued in ``inquiry`` for Hanako's paid ``order``: the download routes' object."""
    issue = receipt_issue(
        order=order,
        addressee="",
        operation_id=f"{inquiry.pk}:issue_receipt:security",
        actor="security",
        inquiry_ref=str(inquiry.pk),
    )
    return issue.receipt.number


def support_records(orders: SupportShop) -> None:
    """One row for each admin model the shop leaves empty, so its pages show an object (the
    receipt is the one ``RoutePaths`` issues for the download routes)."""
    CannedReply.objects.create(title="Apology", language="ja", body="申し訳ございません。")
    issued = timezone.now() - timedelta(days=120)
    m.Coupon.objects.create(
        code="SORRY-SECURITY01",
        customer=CustomerFactory.create(),
        value=500,
        operation_id="security-coupon",
        expires_at=issued + timedelta(days=90),
        created_at=issued,
    )
    shipment = orders.hanako.absent_returned.shipment
    today = timezone.localdate()
    m.Redelivery.objects.create(
        shipment=shipment,
        operation_id="security-redelivery",
        slot_date=today,
        slot_window="14-16",
        carrier_booking_id="bk-1",
    )
    m.DeliveryDateChange.objects.create(
        shipment=shipment, operation_id="security-date", new_date=today, carrier_booking_id="bk-2"
    )
    m.AddressChange.objects.create(
        order=orders.hanako.pending,
        operation_id="security-address",
        postal_code="104-0061",
        prefecture="東京都",
        address_line="中央区銀座1-2-3",
    )
    m.GatewayTransaction.objects.create(
        idempotency_key="security", kind="refund", payment_reference="pay-x", transaction_id="tx"
    )
    m.CarrierBooking.objects.create(
        idempotency_key="security",
        kind="redelivery",
        tracking_number="0000-0000-0000",
        delivery_date=today,
        booking_id="bk-3",
    )
    m.WebhookDelivery.objects.create(
        token=m.ApiToken.objects.filter(user__isnull=True).earliest("pk"),
        event="conversation.resolved",
        payload={"reply": "security"},
    )
    # django-axes' records: a failed login, a lockout log and a login log.
    seen = {"ip_address": "203.0.113.1", "user_agent": "security", "path_info": "/accounts/"}
    axes_models.AccessAttempt.objects.create(
        username="nobody", get_data="", post_data="", failures_since_start=1, **seen
    )
    axes_models.AccessFailureLog.objects.create(username="nobody", **seen)
    axes_models.AccessLog.objects.create(username="nobody", **seen)


# --- Sockets ---------------------------------------------------------------------------------


def socket_verdict(path: str, headers: list[tuple[bytes, bytes]]) -> str:
    """``accepted``, ``closed 4401``/``4403`` (accepted only to close), or ``rejected``."""

    async def attempt() -> str:
        from netshop.asgi import application

        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect(timeout=5)
        if not connected:
            return "rejected"
        if await communicator.receive_nothing(timeout=0.1):
            await communicator.disconnect()
            return "accepted"
        message = await communicator.receive_output()
        if message["type"] == "websocket.close":
            # As a server would after the close handshake: lets the consumer stop at once.
            await communicator.disconnect(code=message.get("code", 1000))
            return f"closed {message.get('code')}"
        await communicator.disconnect()
        return "accepted"

    return async_to_sync(attempt)()


def as_text(value: Any) -> str:
    """JSON-shaped values as one searchable string (non-ASCII kept as it is)."""
    return json.dumps(value, ensure_ascii=False, default=str)


# --- What a run did ------------------------------------------------------------------------


def side_effects() -> dict[str, list[Any]]:
    """Every support action on record that the shop's scenario did not write."""
    return {
        "refunds": list(
            m.Refund.objects.exclude(operation_id__startswith=SCENARIO_PREFIX).values_list()
        ),
        "cancellations": list(
            m.Cancellation.objects.exclude(operation_id__startswith=SCENARIO_PREFIX).values_list()
        ),
        "redeliveries": list(m.Redelivery.objects.values_list()),
        "date_changes": list(m.DeliveryDateChange.objects.values_list()),
        "gateway": list(m.GatewayTransaction.objects.values_list()),
        "carrier": list(m.CarrierBooking.objects.values_list()),
    }


def new_coupons(before: set[int]) -> list[m.Coupon]:
    return list(m.Coupon.objects.exclude(pk__in=before).select_related("customer"))


def run_record(outcome: RunOutcome) -> str:
    """Everything a run left behind, as one string: its state and what the console shows."""
    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    escalations = Escalation.objects.filter(inquiry=inquiry).values("package", "actions")
    audit = AuditEntry.objects.filter(inquiry_id=inquiry.pk).values_list("data", flat=True)
    return as_text(
        {
            "state": outcome.state,
            "public": outcome.as_dict(),
            "inquiry": [inquiry.reply, inquiry.handoffs, inquiry.escalation],
            "escalations": list(escalations),
            "audit": list(audit),
        }
    )
