"""The shop's domain: customers, their orders, shipments, payments and what support does to them.

Money is an integer number of yen. Every row a support action creates (a refund, a
cancellation, a redelivery, a date change, a coupon) carries the ``operation_id`` that caused
it, backed by a unique constraint: that constraint is what makes a retried action harmless.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

# Defined in netshop.languages (the knowledge models use it too); imported from here by most.
from netshop.languages import Language as Language
from netshop.webhooks.receivers import validate_callback_url


class Customer(models.Model):
    """A shop customer; ``code`` (e.g. C0001) is the identity the storefront sends."""

    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=120)
    email = models.EmailField()
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.JAPANESE)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="customer",
        help_text="Login for the customer help page, if the customer has one.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Product(models.Model):
    sku = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=200)
    name_en = models.CharField(max_length=200, blank=True)
    price = models.PositiveIntegerField(help_text="Yen")
    family = models.CharField(
        max_length=32,
        blank=True,
        help_text="The variants of one product share it (e.g. TSH-LOGO); an exchange stays in it.",
    )
    variant = models.CharField(max_length=40, blank=True, help_text="Size or colour, e.g. M, L.")
    stock = models.PositiveIntegerField(default=0, help_text="Units the warehouse can ship.")
    returnable = models.BooleanField(
        default=True,
        help_text="False for food and personalised items (FAQ): returned only if defective.",
    )

    class Meta:
        ordering = ["sku"]

    def __str__(self) -> str:
        return f"{self.sku} {self.name}"


class OrderStatus(models.TextChoices):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"


class Order(models.Model):
    number = models.CharField(max_length=20, unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="orders")
    status = models.CharField(max_length=12, choices=OrderStatus.choices)
    total = models.PositiveIntegerField(help_text="Yen, tax included")
    placed_at = models.DateTimeField(default=timezone.now)
    notes = models.TextField(blank=True, help_text="Free text the customer left at checkout.")

    class Meta:
        ordering = ["-placed_at"]
        indexes = [models.Index(fields=["customer", "-placed_at"])]

    def __str__(self) -> str:
        return self.number


class OrderLine(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey(Product, on_delete=models.PROTECT)
    quantity = models.PositiveIntegerField(default=1)
    unit_price = models.PositiveIntegerField(help_text="Yen")

    def __str__(self) -> str:
        return f"{self.order.number} × {self.quantity} {self.product.sku}"

    @property
    def subtotal(self) -> int:
        return self.quantity * self.unit_price


class ShipmentStatus(models.TextChoices):
    PREPARING = "preparing"
    IN_TRANSIT = "in_transit"
    OUT_FOR_DELIVERY = "out_for_delivery"
    DELIVERED = "delivered"
    ABSENT_RETURNED = "absent_returned", "absent_returned (不在持ち戻り)"


class Shipment(models.Model):
    order = models.OneToOneField(Order, on_delete=models.CASCADE, related_name="shipment")
    carrier = models.CharField(max_length=40, default="Yamato")
    tracking_number = models.CharField(max_length=20, unique=True)
    status = models.CharField(max_length=20, choices=ShipmentStatus.choices)
    scheduled_date = models.DateField(null=True, blank=True)
    original_scheduled_date = models.DateField(
        null=True, blank=True, help_text="The first promised date; date changes are bounded by it."
    )

    def __str__(self) -> str:
        return f"{self.tracking_number} ({self.status})"


class ShipmentEvent(models.Model):
    shipment = models.ForeignKey(Shipment, on_delete=models.CASCADE, related_name="events")
    status = models.CharField(max_length=20, choices=ShipmentStatus.choices)
    location = models.CharField(max_length=100, blank=True)
    description = models.CharField(max_length=200, blank=True)
    occurred_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["occurred_at", "id"]

    def __str__(self) -> str:
        return f"{self.shipment.tracking_number} {self.status} @ {self.occurred_at:%Y-%m-%d %H:%M}"


class PaymentMethod(models.TextChoices):
    CARD = "card"
    CONVENIENCE_STORE = "konbini"
    BANK_TRANSFER = "bank_transfer"
    CASH_ON_DELIVERY = "cod"


class PaymentStatus(models.TextChoices):
    AUTHORIZED = "authorized"
    CAPTURED = "captured"
    REFUNDED = "refunded"
    PARTIALLY_REFUNDED = "partially_refunded"
    FAILED = "failed"
    VOIDED = "voided", "voided (authorization released)"


class Payment(models.Model):
    order = models.OneToOneField(Order, on_delete=models.CASCADE, related_name="payment")
    method = models.CharField(max_length=16, choices=PaymentMethod.choices)
    status = models.CharField(max_length=20, choices=PaymentStatus.choices)
    authorized_amount = models.PositiveIntegerField(default=0, help_text="Yen")
    captured_amount = models.PositiveIntegerField(default=0, help_text="Yen")
    gateway_reference = models.CharField(max_length=40, unique=True)

    def __str__(self) -> str:
        return f"{self.gateway_reference} ({self.status})"

    @property
    def refunded_amount(self) -> int:
        return sum(refund.amount for refund in self.refunds.all())

    @property
    def refundable_amount(self) -> int:
        return self.captured_amount - self.refunded_amount


class Refund(models.Model):
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    amount = models.PositiveIntegerField(help_text="Yen")
    reason = models.CharField(max_length=500)
    operation_id = models.CharField(max_length=80, unique=True)
    gateway_refund_id = models.CharField(max_length=60)
    actor = models.CharField(max_length=150, help_text="Who approved it (operator username).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"¥{self.amount:,} on {self.payment.order.number}"


class Cancellation(models.Model):
    """The record of one order cancellation and the authorization it released."""

    order = models.OneToOneField(Order, on_delete=models.PROTECT, related_name="cancellation")
    operation_id = models.CharField(max_length=80, unique=True)
    reason = models.CharField(max_length=500)
    previous_status = models.CharField(max_length=12, choices=OrderStatus.choices)
    authorization_released = models.BooleanField(default=False)
    actor = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"cancellation of {self.order.number}"


class Return(models.Model):
    """One return of delivered items and the refund of exactly those items.

    The refund carries the return's ``operation_id`` (in the refunds' own table), so the
    return and its money are made together once.
    """

    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="returns")
    operation_id = models.CharField(max_length=80, unique=True)
    reason = models.CharField(max_length=500)
    amount = models.PositiveIntegerField(help_text="Yen refunded for the returned items")
    refund = models.OneToOneField(
        Refund, null=True, on_delete=models.PROTECT, related_name="item_return"
    )
    actor = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"return on {self.order.number}"


class ReturnLine(models.Model):
    """How many units of one order line a return sends back."""

    item_return = models.ForeignKey(Return, on_delete=models.CASCADE, related_name="lines")
    order_line = models.ForeignKey(OrderLine, on_delete=models.PROTECT, related_name="returned")
    quantity = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"{self.quantity} × {self.order_line.product.sku} returned"


class Exchange(models.Model):
    """A delivered item swapped for another variant of the same product, and the parcel
    that carries the replacement."""

    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="exchanges")
    order_line = models.ForeignKey(OrderLine, on_delete=models.PROTECT, related_name="exchanges")
    quantity = models.PositiveIntegerField()
    from_product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="+")
    to_product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="+")
    operation_id = models.CharField(max_length=80, unique=True)
    reason = models.CharField(max_length=500)
    replacement_tracking_number = models.CharField(max_length=20, unique=True)
    carrier_booking_id = models.CharField(max_length=60)
    actor = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"exchange on {self.order.number}"


class OrderChange(models.Model):
    """Items removed or reduced on an order before it shipped, and the new total.

    ``lines`` keeps what changed (``[{"sku", "name", "from", "to", "unit_price"}]``): a line
    brought to zero is deleted from the order, so this is its only trace.
    """

    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="item_changes")
    operation_id = models.CharField(max_length=80, unique=True)
    lines = models.JSONField()
    previous_total = models.PositiveIntegerField()
    new_total = models.PositiveIntegerField()
    authorization_adjusted = models.BooleanField(default=False)
    actor = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"item change on {self.order.number}"


class Redelivery(models.Model):
    shipment = models.ForeignKey(Shipment, on_delete=models.PROTECT, related_name="redeliveries")
    operation_id = models.CharField(max_length=80, unique=True)
    slot_date = models.DateField()
    slot_window = models.CharField(max_length=20, help_text="e.g. 08-12, 14-16, 18-21")
    carrier_booking_id = models.CharField(max_length=60)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "redeliveries"

    def __str__(self) -> str:
        return f"redelivery {self.slot_date} {self.slot_window}"


class DeliveryDateChange(models.Model):
    shipment = models.ForeignKey(Shipment, on_delete=models.PROTECT, related_name="date_changes")
    operation_id = models.CharField(max_length=80, unique=True)
    previous_date = models.DateField(null=True)
    new_date = models.DateField()
    carrier_booking_id = models.CharField(max_length=60)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"date change {self.previous_date} -> {self.new_date}"


class AddressChange(models.Model):
    """A parcel's delivery address changed before it left: the new address, once per operation.

    The shop keeps no address book; this row is the record of what the customer asked for and
    what the carrier confirmed (``carrier_booking_id``, when a parcel was already labelled).
    """

    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="address_changes")
    shipment = models.ForeignKey(
        Shipment,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="address_changes",
        help_text="The parcel the carrier re-labelled; empty when none was handed over yet.",
    )
    operation_id = models.CharField(max_length=80, unique=True)
    postal_code = models.CharField(max_length=8, help_text="NNN-NNNN")
    prefecture = models.CharField(max_length=8)
    address_line = models.CharField(max_length=200, help_text="City, street, building")
    carrier_booking_id = models.CharField(max_length=60, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"address change of {self.order.number}"


class Receipt(models.Model):
    """The shop's one receipt (領収書) for a paid order: its number never changes.

    Each issue of it (the first, then reissues, each perhaps to another name) is a
    ``ReceiptIssue``; the PDF is drawn from those rows whenever it is downloaded.
    """

    order = models.OneToOneField(Order, on_delete=models.PROTECT, related_name="receipt")
    number = models.CharField(max_length=24, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"receipt {self.number}"


class ReceiptIssue(models.Model):
    """One issue of a receipt, for one inquiry: to whom, for how much, first or a reissue."""

    receipt = models.ForeignKey(Receipt, on_delete=models.PROTECT, related_name="issues")
    operation_id = models.CharField(max_length=80, unique=True)
    inquiry_ref = models.CharField(max_length=64, blank=True, db_index=True)
    addressee = models.CharField(max_length=120)
    amount = models.PositiveIntegerField(help_text="Yen paid and not refunded, when issued")
    reissue = models.BooleanField(default=False)
    issued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["issued_at", "id"]

    def __str__(self) -> str:
        return f"{self.receipt.number}{' (reissue)' if self.reissue else ''}"


class CouponCause(models.TextChoices):
    """The causes the coupon policy names (``netshop.services.coupon_causes``), most serious
    first."""

    REDELIVERY_MISSED = "redelivery_missed", "a booked redelivery did not happen"
    DELIVERY_MISSED = "delivery_missed", "the parcel went back to the depot"
    DELIVERY_LATE = "delivery_late", "delivered after, or still not delivered by, its date"


class Coupon(models.Model):
    """An apology coupon; at most one per inquiry (``inquiry_ref`` is unique when set).

    ``cause`` and ``cause_order`` say what the shop apologised for: one trouble earns one
    coupon. Coupons from before causes were recorded (and the demo's seeded ones) have none.
    """

    code = models.CharField(max_length=24, unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="coupons")
    value = models.PositiveIntegerField(help_text="Yen off the next order")
    cause = models.CharField(max_length=24, choices=CouponCause.choices, blank=True)
    cause_order = models.ForeignKey(
        Order, null=True, blank=True, on_delete=models.PROTECT, related_name="apology_coupons"
    )
    inquiry_ref = models.CharField(max_length=64, null=True, blank=True, unique=True)
    operation_id = models.CharField(max_length=80, unique=True)
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        # Never the code: a coupon's name shows in admin titles, links and logs.
        return f"coupon {self.pk} ¥{self.value:,}"


class GatewayTransaction(models.Model):
    """The payment gateway simulator's ledger; one row per idempotency key, like a real gateway."""

    class Kind(models.TextChoices):
        REFUND = "refund"
        VOID = "void"
        ADJUST = "adjust"  # an authorization lowered to a new amount

    idempotency_key = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    payment_reference = models.CharField(max_length=40)
    amount = models.PositiveIntegerField(default=0)
    transaction_id = models.CharField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.kind} {self.transaction_id}"


class CarrierBooking(models.Model):
    """The carrier simulator's bookings (redeliveries, date and address changes) by idempotency
    key."""

    class Kind(models.TextChoices):
        REDELIVERY = "redelivery"
        DATE_CHANGE = "date_change"
        SHIPMENT = "shipment"  # a new parcel (an exchange's replacement)
        ADDRESS_CHANGE = "address_change"

    idempotency_key = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    tracking_number = models.CharField(max_length=20)
    delivery_date = models.DateField(null=True, blank=True)
    slot_window = models.CharField(max_length=20, blank=True)
    booking_id = models.CharField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.kind} {self.booking_id}"


class ApiToken(models.Model):
    """A bearer token for the API. Only a SHA-256 digest is stored; the key is shown once.

    Without a ``user`` it is a storefront's: it submits inquiries for any customer, and
    reads and writes only in the conversations it submitted (its idempotency keys are its
    own). With one it is that staff member's, for scripts and tools: it acts as them,
    with whatever role they hold at the moment of each request, and opens no page.
    A storefront's token with a ``callback_url`` receives signed webhooks for the
    conversations it submitted (``netshop.webhooks``).
    """

    name = models.CharField(max_length=80, unique=True)
    key_digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text="First characters, to recognise a key.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        help_text="The staff member this token acts as; empty for a storefront's token.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    callback_url = models.CharField(
        max_length=500,
        blank=True,
        validators=[validate_callback_url],
        help_text="Where the storefront's webhooks are POSTed; empty: no webhooks.",
    )
    # Kept in the clear because signing needs it; shown once, when made or rotated.
    webhook_secret = models.CharField(max_length=80, blank=True, editable=False)

    class Meta:
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def digest(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()


class PolicyVersion(models.Model):
    """One version of the shop's policy limits, as a manager saved it (``netshop.policy``).

    Rows are never changed: each change is a new version with who, when and why. With no row
    the environment's values (``NETSHOP_FOUR_EYES_YEN`` and the rest) are in force, as
    version 0; the first save is version 1. The limits' meanings are ``netshop.policy``'s.
    """

    number = models.PositiveIntegerField(unique=True)
    four_eyes_yen = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    operator_limit_yen = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    coupon_cap_yen = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    coupon_limit_per_customer = models.PositiveIntegerField()
    coupon_window_days = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    return_window_days = models.PositiveIntegerField()
    exchange_window_days = models.PositiveIntegerField()
    approval_deadline_minutes = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    review_sample = models.FloatField(validators=[MinValueValidator(0), MaxValueValidator(1)])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    reason = models.TextField()

    class Meta:
        ordering = ["-number"]

    def __str__(self) -> str:
        return f"policy version {self.number}"


from netshop.audit.models import AuditEntry  # noqa: E402,F401
from netshop.knowledge.models import ArticleVersion, HelpArticle  # noqa: E402,F401
from netshop.webhooks.models import WebhookDelivery, WebhookSubjectStatus  # noqa: E402,F401
