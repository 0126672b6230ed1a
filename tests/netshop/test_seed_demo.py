"""seed_demo: the fixed demo orders, a generated shop in every state, the FAQ, the logins."""

from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db.models import Model
from django.utils import timezone

from netshop.demo import build_demo_data
from netshop.knowledge.models import ArticleCategory, ArticleVersion, HelpArticle
from netshop.knowledge.selectors import article_live_version, articles_published
from netshop.knowledge.services import article_draft_save, article_publish
from netshop.models import (
    Cancellation,
    CarrierBooking,
    Customer,
    Exchange,
    Order,
    OrderChange,
    OrderStatus,
    Payment,
    PaymentStatus,
    Product,
    Refund,
    Return,
    Shipment,
    ShipmentStatus,
)
from netshop.roles import Role, user_has_role
from netshop.services.exchanges import exchange_create
from netshop.services.order_changes import order_items_change
from netshop.services.order_items import ItemRequest, delivered_on
from netshop.services.returns import return_create
from netshop.shop_time import shop_today

pytestmark = pytest.mark.django_db

PASSWORD = "demo-pass-for-tests"


@pytest.fixture(autouse=True)
def _fast_demo_logins(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setenv("NETSHOP_DEMO_PASSWORD", PASSWORD)


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def row_counts() -> dict[str, int]:
    models: list[type[Model]] = [
        *apps.get_app_config("netshop").get_models(),
        get_user_model(),
        Group,
    ]
    return {model.__name__: model._default_manager.count() for model in models}


def order_facts(number: str) -> dict[str, Any]:
    order = Order.objects.select_related("customer", "payment").get(number=number)
    return {
        "customer": order.customer.code,
        "status": order.status,
        "total": order.total,
        "payment": (
            order.payment.method,
            order.payment.status,
            order.payment.authorized_amount,
            order.payment.captured_amount,
        ),
        "refunds": order.payment.refunds.count(),
    }


def test_seeding_twice_gives_the_same_rows():
    seed()
    first_counts = row_counts()
    first_orders = list(Order.objects.order_by("number").values_list())

    output = seed()

    assert row_counts() == first_counts
    assert list(Order.objects.order_by("number").values_list()) == first_orders
    assert "demo data already up to date" in output
    assert first_counts["Customer"] == 42  # C0001-C0040, and the retail skills' C0101, C0102
    assert first_counts["Order"] >= 80


def test_the_fixed_orders_of_customer_c0001():
    seed()

    customer = Customer.objects.get(code="C0001")
    assert (customer.language, customer.name) == ("ja", "山田 花子")
    assert order_facts("ORD-1001") == {
        "customer": "C0001",
        "status": "pending",
        "total": 3980,
        "payment": ("card", "authorized", 3980, 0),
        "refunds": 0,
    }
    assert order_facts("ORD-1003") == {
        "customer": "C0001",
        "status": "delivered",
        "total": 12800,
        "payment": ("card", "captured", 12800, 12800),
        "refunds": 0,
    }
    assert order_facts("ORD-1005")["status"] == "cancelled"
    assert order_facts("ORD-1005")["payment"][1] == "voided"
    assert Cancellation.objects.get(order__number="ORD-1005").authorization_released is True


def test_each_demo_customer_has_orders_for_both_approval_thresholds(settings):
    seed()

    orders = {
        number: order_facts(number) for number in ("ORD-1021", "ORD-1022", "ORD-2021", "ORD-2022")
    }

    assert orders == {
        number: {
            "customer": customer,
            "status": "delivered",
            "total": total,
            "payment": ("card", "captured", total, total),
            "refunds": 0,
        }
        for number, customer, total in (
            ("ORD-1021", "C0001", 38500),
            ("ORD-1022", "C0001", 132000),
            ("ORD-2021", "C0002", 38500),
            ("ORD-2022", "C0002", 132000),
        )
    }
    # a refund in full of the first needs four eyes; of the second, more than an operator may
    assert settings.NETSHOP_FOUR_EYES_YEN <= 38500 <= settings.NETSHOP_OPERATOR_LIMIT_YEN
    assert settings.NETSHOP_OPERATOR_LIMIT_YEN < 132000
    assert Shipment.objects.get(order__number="ORD-2022").status == "delivered"


def test_the_retail_skills_have_orders_to_try_them_on_in_both_languages():
    seed()

    assert [
        (o.number, o.customer.code, o.status, o.total)
        for o in Order.objects.filter(number__gte="ORD-5101", number__lte="ORD-5299")
        .select_related("customer")
        .order_by("number")
    ] == [
        ("ORD-5101", "C0101", "delivered", 5720),
        ("ORD-5102", "C0101", "delivered", 4950),
        ("ORD-5103", "C0101", "delivered", 3300),
        ("ORD-5104", "C0101", "pending", 6600),
        ("ORD-5201", "C0102", "delivered", 4950),
        ("ORD-5202", "C0102", "delivered", 8800),
        ("ORD-5203", "C0102", "delivered", 3300),
        ("ORD-5204", "C0102", "pending", 6740),
    ]
    assert delivered_on(Order.objects.get(number="ORD-5101")) == shop_today() - dt.timedelta(days=3)
    sizes = Product.objects.filter(family="TSH-LOGO").order_by("sku")
    assert [(p.sku, p.variant, p.stock > 0) for p in sizes] == [
        ("TSH-LOGO-L", "L", True),
        ("TSH-LOGO-M", "M", True),
    ]


def test_ord_1002_is_in_transit_and_due_in_a_few_days():
    seed()

    shipment = Shipment.objects.get(order__number="ORD-1002")
    today = timezone.localdate()
    assert shipment.order.status == "shipped"
    assert shipment.tracking_number == "4821-7730-1195"
    assert shipment.status == "in_transit"
    assert shipment.scheduled_date is not None
    assert today + dt.timedelta(days=2) <= shipment.scheduled_date <= today + dt.timedelta(days=5)
    assert shipment.original_scheduled_date == shipment.scheduled_date
    assert list(shipment.events.values_list("status", flat=True)) == ["preparing", "in_transit"]
    assert shipment.events.filter(occurred_at__gt=timezone.now()).count() == 0


def test_ord_1004_was_taken_back_after_a_failed_delivery_attempt():
    seed()

    shipment = Shipment.objects.get(order__number="ORD-1004")
    assert (shipment.order.status, shipment.status) == ("shipped", "absent_returned")
    assert list(shipment.events.values_list("status", flat=True)) == [
        "preparing",
        "in_transit",
        "out_for_delivery",
        "absent_returned",
    ]


def test_the_orders_of_customer_c0002():
    seed()

    assert Customer.objects.get(code="C0002").language == "en"
    assert order_facts("ORD-2001") == {
        "customer": "C0002",
        "status": "delivered",
        "total": 8600,
        "payment": ("card", "captured", 8600, 8600),
        "refunds": 0,
    }
    assert order_facts("ORD-2002")["status"] == "pending"
    assert order_facts("ORD-2002")["payment"][1] == "authorized"


def test_every_order_shipment_and_payment_state_is_present():
    seed()

    assert set(Order.objects.values_list("status", flat=True)) == set(OrderStatus.values)
    assert set(Shipment.objects.values_list("status", flat=True)) == set(ShipmentStatus.values)
    assert set(Payment.objects.values_list("status", flat=True)) == set(PaymentStatus.values)
    assert set(Customer.objects.values_list("language", flat=True)) == {"ja", "en"}


def test_generated_payments_are_consistent_with_their_refunds():
    seed()

    for payment in Payment.objects.prefetch_related("refunds"):
        refunded = payment.refunded_amount
        assert refunded <= payment.captured_amount, payment.order.number
        if payment.status == "refunded":
            assert refunded == payment.captured_amount, payment.order.number
        elif payment.status == "partially_refunded":
            assert 0 < refunded < payment.captured_amount, payment.order.number
        else:
            assert refunded == 0, payment.order.number


def test_generated_data_is_deterministic():
    today = dt.date(2025, 3, 14)
    tz = dt.timezone(dt.timedelta(hours=9))

    assert build_demo_data(today=today, tz=tz) == build_demo_data(today=today, tz=tz)


def test_the_help_has_at_least_30_articles_in_both_languages_in_every_category():
    seed()

    for language in ("ja", "en"):
        live = articles_published(language=language)
        assert len(live) >= 30
        assert {v.article.category for v in live} == set(ArticleCategory.values)
        assert all(v.number == 1 and v.published_at for v in live)
    assert not HelpArticle.objects.filter(tags=[]).exists()
    assert any("14 days" in v.body for v in articles_published(language="en"))
    assert any("沖縄" in v.body for v in articles_published(language="ja"))


def test_seeding_again_leaves_an_edited_article_alone():
    seed()
    article = HelpArticle.objects.get(key="shipping-fee")
    draft = article_draft_save(article=article, language="en", title="Shipping", body="Free.")
    article_publish(version=draft)

    seed()

    assert article_live_version(article=article, language="en") == draft
    assert ArticleVersion.objects.filter(article=article, language="en").count() == 2


def test_demo_logins_have_their_roles_and_customers():
    seed()

    users = {user.username: user for user in get_user_model().objects.all()}
    assert user_has_role(users["operator"], Role.OPERATOR)
    assert not user_has_role(users["operator"], Role.MANAGER)
    assert user_has_role(users["manager"], Role.MANAGER)
    assert user_has_role(users["manager"], Role.OPERATOR)
    assert users["c0001"].customer.code == "C0001"
    assert users["c0002"].customer.code == "C0002"
    assert not users["c0001"].is_staff
    assert all(user.check_password(PASSWORD) for user in users.values())


def test_reseeding_keeps_changed_passwords_unless_asked():
    seed()
    operator = get_user_model().objects.get(username="operator")
    operator.set_password("chosen-by-operator")
    operator.save()

    seed()
    operator.refresh_from_db()
    assert operator.check_password("chosen-by-operator")

    seed("--reset-passwords")
    operator.refresh_from_db()
    assert operator.check_password(PASSWORD)


def test_reseeding_keeps_orders_support_acted_on_until_reset():
    seed()
    payment = Payment.objects.get(order__number="ORD-1003")
    Refund.objects.create(
        payment=payment, amount=12800, reason="broken", operation_id="op-1", actor="operator"
    )
    Payment.objects.filter(pk=payment.pk).update(status="refunded")

    output = seed()

    assert "ORD-1003" in output
    assert Payment.objects.get(pk=payment.pk).status == "refunded"
    assert Refund.objects.filter(operation_id="op-1").exists()

    seed("--reset")

    assert not Refund.objects.filter(operation_id="op-1").exists()
    assert order_facts("ORD-1003")["payment"] == ("card", "captured", 12800, 12800)


def test_a_reset_undoes_returns_exchanges_and_item_changes():
    seed()
    mug = ItemRequest("MUG-ARITA-AI")
    return_create(
        order=Order.objects.get(number="ORD-5101"),
        items=[mug],
        reason="broken",
        operation_id="op-ret",
        actor="operator",
    )
    exchange_create(
        order=Order.objects.get(number="ORD-5103"),
        item=ItemRequest("TSH-LOGO-M"),
        variant="L",
        reason="too small",
        operation_id="op-x",
        actor="operator",
    )
    order_items_change(
        order=Order.objects.get(number="ORD-5104"),
        items=[ItemRequest("CHP-WAKASA", 0)],
        operation_id="op-m",
        actor="operator",
    )

    kept = seed()
    seed("--reset")

    assert "ORD-5101, ORD-5103, ORD-5104" in kept
    left = [model.objects.count() for model in (Return, Exchange, OrderChange, CarrierBooking)]
    assert left == [0, 0, 0, 0]
    assert order_facts("ORD-5101")["refunds"] == 0
    assert order_facts("ORD-5104")["total"] == 6600
    assert Product.objects.get(sku="TSH-LOGO-L").stock == 20
