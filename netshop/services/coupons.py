"""Writes on customers' coupons: apology coupons."""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone

from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Coupon, Customer
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import coupon_checks, raise_first_failure

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes are read aloud


def coupon_issue(
    *, customer: Customer, value: int, inquiry_ref: str, operation_id: str, actor: str
) -> Coupon:
    """Issue an apology coupon worth ``value`` yen, at most one per inquiry.

    Runs once per ``operation_id``. The customer row is locked so two coupons for one inquiry
    cannot both pass the check; the unique ``inquiry_ref`` backs that up.
    """
    try:
        return run_once(
            Coupon,
            operation_id,
            same=lambda done: (
                (done.customer_id, done.value, done.inquiry_ref)
                == (customer.pk, value, inquiry_ref)
            ),
            lock=lambda: Customer.objects.select_for_update().get(pk=customer.pk),
            perform=lambda locked: _issue(locked, value, inquiry_ref, operation_id, actor),
        )
    except IntegrityError:
        raise DomainError(
            "coupon_already_issued", f"inquiry {inquiry_ref} already has a coupon"
        ) from None


def _issue(
    customer: Customer, value: int, inquiry_ref: str, operation_id: str, actor: str
) -> Coupon:
    raise_first_failure(coupon_checks(value=value, inquiry_ref=inquiry_ref))
    valid_days = getattr(settings, "NETSHOP_COUPON_VALID_DAYS", 90)
    coupon = Coupon.objects.create(
        code="SORRY-" + "".join(secrets.choice(CODE_ALPHABET) for _ in range(10)),
        customer=customer,
        value=value,
        inquiry_ref=inquiry_ref,
        operation_id=operation_id,
        expires_at=timezone.now() + dt.timedelta(days=valid_days),
    )
    # The code itself is left out: it is redeemable, like a small gift card.
    audit_record(
        action=AuditAction.SIDE_EFFECT_COUPON,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(inquiry_ref),
        operation_id=operation_id,
        data={"customer": customer.code, "amount": value, "coupon_id": coupon.pk},
    )
    return coupon
