"""Helpers for the API tests: callers of every kind, and escalations to act on."""

from __future__ import annotations

import secrets
from typing import Any, cast

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agents.models import Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.storefront_intake import storefront_inquiry_create
from agents.support.escalations.services import escalation_record_wait
from agents.support.shapes import PendingAction
from netshop.models import ApiToken, Customer, Order
from netshop.roles import Role, role_assign
from tests.factories import CustomerFactory, delivered_order

REFUND_ACTION: dict[str, Any] = {
    "action_id": "a1",
    "kind": "process_refund",
    "params": {"order_number": "ORD-4003", "amount": 12800, "reason": "damaged"},
    "amount_at_risk": 12800,
    "facts": {"payment": {"refundable": 12800}},
    "checks": [],
}


def storefront_key(name: str = "storefront", *, revoked: bool = False) -> str:
    return _api_key(name, None, revoked)


def staff_key(user: User, *, revoked: bool = False) -> str:
    """A token issued to ``user`` (as ``create_api_token NAME --user`` issues one)."""
    return _api_key(f"{user.username}-token", user, revoked)


def _api_key(name: str, user: User | None, revoked: bool) -> str:
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(
        name=name,
        key_digest=ApiToken.digest(key),
        prefix=key[:8],
        user=user,
        revoked_at=timezone.now() if revoked else None,
    )
    return key


def token_of(key: str) -> ApiToken:
    """The token row behind a bearer ``key``."""
    return ApiToken.objects.get(key_digest=ApiToken.digest(key))


def submitted_by(
    key: str, customer: Customer | None = None, text: str = "返金してください"
) -> Inquiry:
    """An inquiry the storefront with bearer ``key`` submitted (so that storefront, and no
    other, reads it and writes in it)."""
    return storefront_inquiry_create(
        token=token_of(key), customer=customer or CustomerFactory.create(), text=text
    )


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def staff_user(username: str, role: Role | None) -> User:
    """A user holding ``role``; ``None`` makes a signed-in user who is no staff member."""
    user = User.objects.create_user(username, password="x")
    if role is not None:
        role_assign(user=user, role=role)
    return user


def signed_in(user: User, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def inquiry_for(customer: Customer | None = None, text: str = "返金してください") -> Inquiry:
    return inquiry_create(customer=customer or CustomerFactory.create(), text=text, start=False)


def escalation_for(
    inquiry: Inquiry | None = None,
    *,
    wait_key: str | None = None,
    kind: str = "approval",
    reason: str = "approval_required",
) -> Escalation:
    inquiry = inquiry or inquiry_for()
    actions = (
        [cast(PendingAction, dict(REFUND_ACTION))]
        if kind == "approval" or reason == "action_failed"
        else []
    )
    if actions and not Order.objects.filter(number="ORD-4003").exists():
        # The refund's order, so that an edit is checked against a real payment (the first
        # escalation of a test owns it; the refund rules read it fresh).
        delivered_order(number="ORD-4003", customer=inquiry.customer, captured=12800)
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=wait_key or f"{inquiry.pk}:{secrets.token_hex(4)}",
        kind=kind,
        reason=reason,
        summary=f"{kind} for {inquiry.customer.code}",
        package={"inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code}},
        actions=actions,
    )


CANCEL_ACTION: dict[str, Any] = {
    "action_id": "a2",
    "kind": "cancel_order",
    "params": {"order_number": "ORD-8001", "reason": "ordered twice"},
    "amount_at_risk": 3980,
    "facts": {"payment": {"refundable": 0}},
}


def refund_escalation(amount: int, *, with_cancellation: bool = False) -> Escalation:
    """An approval of a refund of ``amount`` yen (its order captured in full), and of a
    cancellation too if asked: for decisions per action and four eyes."""
    inquiry = inquiry_for()
    number = f"ORD-{secrets.randbelow(10**6):06d}"
    delivered_order(number=number, customer=inquiry.customer, captured=amount)
    refund = {
        **REFUND_ACTION,
        "params": {**REFUND_ACTION["params"], "order_number": number, "amount": amount},
        "amount_at_risk": amount,
        "facts": {"payment": {"refundable": amount}},
    }
    actions = [refund, CANCEL_ACTION] if with_cancellation else [refund]
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:{secrets.token_hex(4)}",
        kind="approval",
        reason="approval_required",
        summary=f"refund ¥{amount:,}",
        package={},
        actions=[cast(PendingAction, dict(a)) for a in actions],
    )
