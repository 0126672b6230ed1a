"""The shop's writes. Each validates (``policy_checks``), then writes in one transaction, once
per ``operation_id``, and raises ``DomainError`` with a stable code when a rule refuses."""

from netshop.services.coupons import coupon_issue
from netshop.services.orders import order_cancel
from netshop.services.policy_checks import (
    PolicyCheck,
    cancel_checks,
    coupon_checks,
    date_change_checks,
    redelivery_checks,
    refund_checks,
)
from netshop.services.refunds import refund_create
from netshop.services.shipping import delivery_date_change, redelivery_arrange

__all__ = [
    "PolicyCheck",
    "cancel_checks",
    "coupon_checks",
    "coupon_issue",
    "date_change_checks",
    "delivery_date_change",
    "order_cancel",
    "redelivery_arrange",
    "redelivery_checks",
    "refund_checks",
    "refund_create",
]
