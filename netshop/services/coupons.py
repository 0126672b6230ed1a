"""Writes on customers' coupons: apology coupons.

A coupon is issued only for a cause in the shop's own records (``coupon_causes``), within
the value cap, once per inquiry and at most the policy's coupons per customer over its
coupon window (``netshop.policy``).

Lock order (one order for every writer, so none can deadlock another): the customer row
first, ``FOR NO KEY UPDATE``, held while the limit is counted and the coupon inserted; the
audit chain's advisory lock last. ``NO KEY`` matters: it serialises coupon issues for one
customer but does not block the ``FOR KEY SHARE`` that inserts referencing the customer
(an inquiry, an order, the coupon itself) take for their foreign-key checks.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from typing import Final

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone

from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Coupon, Customer, Order
from netshop.policy import policy_in_force
from netshop.services.coupon_causes import Cause, coupon_cause_for
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import coupon_checks, raise_first_failure
from netshop.shop_time import shop_today

CODE_PREFIX: Final = "SORRY-"
CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes are read aloud
# Any code the shop hands out (issued ones and the demo's seeded ones): redeemable secrets.
# A model retelling a reply may change its case or its hyphen (U+2010 to U+2015, U+2212,
# the full-width one): a code is withheld however it is spelled.
CODE_PATTERN: Final = re.compile(r"SORRY[-\u2010-\u2015\u2212\uff0d][A-Z0-9]{4,}", re.IGNORECASE)
WITHHELD: Final = CODE_PREFIX + "••••"


def coupon_issue(
    *,
    customer: Customer,
    value: int,
    inquiry_ref: str,
    operation_id: str,
    actor: str,
    order_number: str | None = None,
    replaces_expired: bool = False,
) -> Coupon:
    """Issue an apology coupon worth ``value`` yen for a cause the shop's records show.

    ``order_number`` is the order the inquiry is about, if it names one: it narrows where
    the cause is looked for, it never is the cause. ``replaces_expired``: the customer asks
    for a coupon in place of one that expired, which the shop never does (the FAQ says
    expired coupons are not reissued), whatever other cause the records show: a new coupon
    handed out for that request would be a reissue. Runs once per ``operation_id``.
    """
    if replaces_expired:
        raise DomainError("coupon_expired_not_reissued")
    try:
        return run_once(
            Coupon,
            operation_id,
            same=lambda done: (
                (done.customer_id, done.value, done.inquiry_ref)
                == (customer.pk, value, inquiry_ref)
            ),
            lock=lambda: Customer.objects.select_for_update(no_key=True).get(pk=customer.pk),
            perform=lambda locked: _issue(
                locked, value, inquiry_ref, operation_id, actor, order_number
            ),
        )
    except IntegrityError as error:
        if not is_one_per_inquiry_clash(error):
            raise  # another constraint: a real failure, not "already has a coupon"
        raise DomainError("coupon_already_issued", inquiry=inquiry_ref) from None


def is_one_per_inquiry_clash(error: IntegrityError) -> bool:
    """Did ``error`` come from the one-coupon-per-inquiry constraint?"""
    diagnostics = getattr(error.__cause__, "diag", None)
    name = getattr(diagnostics, "constraint_name", None) or str(error)  # SQLite: the message
    return "inquiry_ref" in name


def _issue(
    customer: Customer,
    value: int,
    inquiry_ref: str,
    operation_id: str,
    actor: str,
    order_number: str | None,
) -> Coupon:
    # Under the customer's row lock: a concurrent issue for this customer waits here, and
    # counts this one's coupon once it commits.
    raise_first_failure(coupon_checks(customer=customer, value=value, inquiry_ref=inquiry_ref))
    cause = coupon_cause_for(
        customer=customer,
        order_number=order_number,
        today=shop_today(),
        window_days=policy_in_force().coupon_window_days,
    )
    coupon = Coupon.objects.create(
        code=CODE_PREFIX + "".join(secrets.choice(CODE_ALPHABET) for _ in range(10)),
        customer=customer,
        value=value,
        cause=cause.cause,
        cause_order=Order.objects.get(customer=customer, number=cause.order_number),
        inquiry_ref=inquiry_ref,
        operation_id=operation_id,
        expires_at=timezone.now() + dt.timedelta(days=_valid_days()),
    )
    _audit(coupon, cause, actor)  # last: the audit lock is held until commit
    return coupon


def _valid_days() -> int:
    return int(getattr(settings, "NETSHOP_COUPON_VALID_DAYS", 90))


def _audit(coupon: Coupon, cause: Cause, actor: str) -> None:
    # The code itself is left out: it is redeemable, like a small gift card.
    audit_record(
        action=AuditAction.SIDE_EFFECT_COUPON,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(coupon.inquiry_ref or ""),
        operation_id=coupon.operation_id,
        data={
            "customer": coupon.customer.code,
            "amount": coupon.value,
            "coupon_id": coupon.pk,
            "cause": cause.cause.value,
            "order": cause.order_number,
        },
    )


def coupon_codes_withheld(text: str) -> str:
    """``text`` with every coupon code replaced: for what staff and logs see of a reply.

    Only the customer's own reply carries the code; everywhere else it would let anyone who
    reads the console or the event history redeem the customer's coupon.
    """
    return CODE_PATTERN.sub(WITHHELD, text)
