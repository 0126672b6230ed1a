"""Fixtures for conversation tests: a customer's conversation and the staff who act on it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.team.runs.driver import inquiry_advance
from netshop.models import Customer
from netshop.roles import Role, role_assign
from tests.support.scenarios import SupportShop


def staff(name: str, role: Role = Role.OPERATOR) -> User:
    user = User.objects.create_user(name, password="x")
    role_assign(user=user, role=role)
    return user


@pytest.fixture
def alice(shop: SupportShop) -> User:
    return staff("alice")


@pytest.fixture
def bob(shop: SupportShop) -> User:
    return staff("bob")


@pytest.fixture
def customer(shop: SupportShop) -> Customer:
    """Hanako, whose orders are ``shop.hanako``'s."""
    return shop.hanako.customer


@pytest.fixture
def where_is_it(shop: SupportShop) -> str:
    """Hanako asks where her parcel in transit is."""
    return f"注文{shop.hanako.in_transit.number}の荷物は今どこにありますか？"


@pytest.fixture
def conversation(customer: Customer) -> Callable[[str], Inquiry]:
    """A conversation started with ``text`` and its first turn run in this process."""

    def start(text: str) -> Inquiry:
        inquiry = inquiry_create(customer=customer, text=text, start=False)
        inquiry_advance(inquiry_id=str(inquiry.pk))
        return Inquiry.objects.get(pk=inquiry.pk)

    return start


def fresh(inquiry: Inquiry) -> Inquiry:
    return Inquiry.objects.get(pk=inquiry.pk)


def thread(inquiry: Inquiry) -> list[tuple[str, int | None]]:
    """The thread as (author kind, turn) pairs, in order."""
    return [(m.author_kind, m.turn) for m in inquiry.messages.order_by("created_at", "id")]
