"""Django admin for the shop's data.

Records of support actions (refunds, cancellations, redeliveries, date changes, coupons) and
the simulators' ledgers are read-only here: they are written by the services, which enforce
the shop's rules and the one-row-per-operation-id guarantee, and they are audit evidence.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from netshop import models as m
from netshop.money import yen
from netshop.services.coupons import coupon_codes_withheld
from netshop.webhooks.services import (
    deliveries_retry_now,
    token_hears_webhooks,
    webhook_secret_rotate,
)


class ReadOnlyAdminMixin:
    """Shows records without letting anyone add, change or delete them through the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyTabularInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True


# --- Customers and products ------------------------------------------------------------------


class OrderSummaryInline(ReadOnlyTabularInline):
    model = m.Order
    fields = ("number", "status", "total", "placed_at")
    readonly_fields = fields
    ordering = ("-placed_at",)


@admin.register(m.Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "email", "language", "user", "created_at")
    list_filter = ("language",)
    search_fields = ("code", "name", "email", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    inlines = (OrderSummaryInline,)


@admin.register(m.Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ("sku", "name", "name_en", "price_yen")
    search_fields = ("sku", "name", "name_en")

    @admin.display(description="price", ordering="price")
    def price_yen(self, product: m.Product) -> str:
        return yen(product.price)


# --- Orders ----------------------------------------------------------------------------------


class OrderLineInline(admin.TabularInline):
    model = m.OrderLine
    extra = 0
    raw_id_fields = ("product",)


class PaymentInline(ReadOnlyAdminMixin, admin.StackedInline):
    model = m.Payment
    can_delete = False
    show_change_link = True
    readonly_fields = (
        "method",
        "status",
        "authorized_amount",
        "captured_amount",
        "gateway_reference",
    )


class ShipmentInline(ReadOnlyAdminMixin, admin.StackedInline):
    model = m.Shipment
    can_delete = False
    show_change_link = True
    readonly_fields = (
        "carrier",
        "tracking_number",
        "status",
        "scheduled_date",
        "original_scheduled_date",
    )


class CancellationInline(ReadOnlyAdminMixin, admin.StackedInline):
    model = m.Cancellation
    can_delete = False
    readonly_fields = (
        "operation_id",
        "reason",
        "previous_status",
        "authorization_released",
        "actor",
        "created_at",
    )


@admin.register(m.Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = (
        "number",
        "customer",
        "status",
        "total_yen",
        "payment_status",
        "shipment_status",
        "placed_at",
    )
    list_filter = ("status", "payment__status", "shipment__status", "placed_at")
    search_fields = (
        "number",
        "customer__code",
        "customer__name",
        "customer__email",
        "shipment__tracking_number",
    )
    list_select_related = ("customer", "payment", "shipment")
    raw_id_fields = ("customer",)
    date_hierarchy = "placed_at"
    inlines = (OrderLineInline, PaymentInline, ShipmentInline, CancellationInline)

    @admin.display(description="total", ordering="total")
    def total_yen(self, order: m.Order) -> str:
        return yen(order.total)

    @admin.display(description="payment", ordering="payment__status")
    def payment_status(self, order: m.Order) -> str:
        payment = getattr(order, "payment", None)
        return payment.status if payment else "-"

    @admin.display(description="shipment", ordering="shipment__status")
    def shipment_status(self, order: m.Order) -> str:
        shipment = getattr(order, "shipment", None)
        return shipment.status if shipment else "-"


# --- Shipments -------------------------------------------------------------------------------


class ShipmentEventInline(admin.TabularInline):
    model = m.ShipmentEvent
    extra = 0


class RedeliveryInline(ReadOnlyTabularInline):
    model = m.Redelivery
    readonly_fields = ("operation_id", "slot_date", "slot_window", "carrier_booking_id")


class DeliveryDateChangeInline(ReadOnlyTabularInline):
    model = m.DeliveryDateChange
    readonly_fields = ("operation_id", "previous_date", "new_date", "carrier_booking_id")


@admin.register(m.Shipment)
class ShipmentAdmin(admin.ModelAdmin):
    list_display = ("tracking_number", "order", "carrier", "status", "scheduled_date")
    list_filter = ("status", "carrier", "scheduled_date")
    search_fields = ("tracking_number", "order__number", "order__customer__code")
    list_select_related = ("order",)
    raw_id_fields = ("order",)
    inlines = (ShipmentEventInline, RedeliveryInline, DeliveryDateChangeInline)


# --- Payments --------------------------------------------------------------------------------


class RefundInline(ReadOnlyTabularInline):
    model = m.Refund
    readonly_fields = (
        "amount",
        "reason",
        "operation_id",
        "gateway_refund_id",
        "actor",
        "created_at",
    )


@admin.register(m.Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = (
        "gateway_reference",
        "order",
        "method",
        "status",
        "authorized_yen",
        "captured_yen",
    )
    list_filter = ("status", "method")
    search_fields = ("gateway_reference", "order__number", "order__customer__code")
    list_select_related = ("order",)
    raw_id_fields = ("order",)
    inlines = (RefundInline,)

    @admin.display(description="authorized", ordering="authorized_amount")
    def authorized_yen(self, payment: m.Payment) -> str:
        return yen(payment.authorized_amount)

    @admin.display(description="captured", ordering="captured_amount")
    def captured_yen(self, payment: m.Payment) -> str:
        return yen(payment.captured_amount)


# --- Records of support actions (read-only) --------------------------------------------------


@admin.register(m.Refund)
class RefundAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("operation_id", "order_number", "amount", "actor", "created_at")
    list_filter = ("created_at",)
    search_fields = ("operation_id", "payment__order__number", "gateway_refund_id", "actor")
    list_select_related = ("payment__order",)

    @admin.display(description="order", ordering="payment__order__number")
    def order_number(self, refund: m.Refund) -> str:
        return refund.payment.order.number


@admin.register(m.Cancellation)
class CancellationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("operation_id", "order", "previous_status", "authorization_released", "actor")
    list_filter = ("previous_status", "authorization_released")
    search_fields = ("operation_id", "order__number", "actor")
    list_select_related = ("order",)


@admin.register(m.Redelivery)
class RedeliveryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("operation_id", "shipment", "slot_date", "slot_window", "created_at")
    search_fields = ("operation_id", "shipment__tracking_number", "shipment__order__number")
    list_select_related = ("shipment",)


@admin.register(m.DeliveryDateChange)
class DeliveryDateChangeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("operation_id", "shipment", "previous_date", "new_date", "created_at")
    search_fields = ("operation_id", "shipment__tracking_number", "shipment__order__number")
    list_select_related = ("shipment",)


@admin.register(m.AddressChange)
class AddressChangeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("operation_id", "order", "postal_code", "prefecture", "created_at")
    search_fields = ("operation_id", "order__number", "shipment__tracking_number")
    list_select_related = ("order",)


class ReceiptIssueInline(ReadOnlyTabularInline):
    model = m.ReceiptIssue
    readonly_fields = ("operation_id", "addressee", "amount", "reissue", "inquiry_ref", "issued_at")


@admin.register(m.Receipt)
class ReceiptAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("number", "order", "created_at")
    search_fields = ("number", "order__number", "order__customer__code")
    list_select_related = ("order",)
    inlines = (ReceiptIssueInline,)


@admin.register(m.Coupon)
class CouponAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Coupons without their codes: a code is redeemable, and only its customer gets it."""

    list_display = (
        "withheld_code",
        "customer",
        "value",
        "cause",
        "cause_order",
        "inquiry_ref",
        "expires_at",
        "operation_id",
    )
    list_filter = ("expires_at", "cause")
    search_fields = ("customer__code", "inquiry_ref", "operation_id")  # never by code
    list_select_related = ("customer", "cause_order")
    exclude = ("code",)
    readonly_fields = ("withheld_code",)

    @admin.display(description="code")
    def withheld_code(self, coupon: m.Coupon) -> str:
        return coupon_codes_withheld(coupon.code)


@admin.register(m.GatewayTransaction)
class GatewayTransactionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("transaction_id", "kind", "payment_reference", "amount", "created_at")
    list_filter = ("kind",)
    search_fields = ("transaction_id", "payment_reference", "idempotency_key")


@admin.register(m.CarrierBooking)
class CarrierBookingAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("booking_id", "kind", "tracking_number", "delivery_date", "slot_window")
    list_filter = ("kind",)
    search_fields = ("booking_id", "tracking_number", "idempotency_key")


# --- Help articles and API tokens ------------------------------------------------------


class ArticleVersionInline(ReadOnlyTabularInline):
    model = m.ArticleVersion
    fields = ("language", "number", "status", "title", "published_by", "published_at")
    readonly_fields = fields
    show_change_link = False


@admin.register(m.HelpArticle)
class HelpArticleAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: articles are written and published in the console (or imported from a
    file), where every change is audited."""

    list_display = ("key", "category", "updated_at")
    list_filter = ("category",)
    search_fields = ("key", "versions__title")
    inlines = (ArticleVersionInline,)


@admin.register(m.ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are issued by ``manage.py create_api_token`` (the key is shown only there).

    A storefront token's callback URL may be set here; its webhook secret is shown once, in
    the message after it is made or rotated, and never on the page.
    """

    list_display = ("name", "prefix", "user", "hears_webhooks", "created_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__username")
    fields = ("name", "prefix", "user", "callback_url", "created_at", "revoked_at")
    readonly_fields = ("name", "prefix", "user", "created_at", "revoked_at")
    actions = ("revoke", "rotate_webhook_secret")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        """Webhooks are a storefront's: a staff member's token has no callback URL to set."""
        staff_token = obj is not None and obj.user_id is not None
        return (*self.readonly_fields, "callback_url") if staff_token else self.readonly_fields

    @admin.display(description="webhooks", boolean=True)
    def hears_webhooks(self, token: m.ApiToken) -> bool:
        return token_hears_webhooks(token)

    def save_model(self, request: HttpRequest, obj: m.ApiToken, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if obj.callback_url and not obj.webhook_secret:
            self._show_secret(request, obj, webhook_secret_rotate(token=obj))

    @admin.action(description="Revoke selected tokens", permissions=["change"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[m.ApiToken]) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, f"Revoked {count} token(s).")

    @admin.action(description="Rotate the webhook signing secret", permissions=["change"])
    def rotate_webhook_secret(self, request: HttpRequest, queryset: QuerySet[m.ApiToken]) -> None:
        for token in queryset.filter(user__isnull=True):
            self._show_secret(request, token, webhook_secret_rotate(token=token))

    def _show_secret(self, request: HttpRequest, token: m.ApiToken, secret: str) -> None:
        self.message_user(
            request,
            f"Webhook signing secret of {token.name!r}, shown once: {secret}",
            messages.WARNING,
        )


@admin.register(m.WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The delivery log: what was sent to which storefront, how often, and how it went."""

    list_display = (
        "id",
        "event",
        "token",
        "status",
        "attempts",
        "last_status_code",
        "created_at",
        "next_attempt_at",
        "delivered_at",
    )
    list_filter = ("status", "event")
    list_select_related = ("token",)
    search_fields = ("=id", "=subject_id")
    fields = (*list_display, "subject_id", "last_error", "payload_shown")
    readonly_fields = fields
    actions = ("retry_now",)

    @admin.display(description="payload")
    def payload_shown(self, delivery: m.WebhookDelivery) -> str:
        """The data sent, with coupon codes withheld: a code is its customer's alone."""
        return coupon_codes_withheld(json.dumps(delivery.payload, ensure_ascii=False, indent=2))

    def has_retry_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("netshop.change_webhookdelivery")

    @admin.action(description="Retry now", permissions=["retry"])
    def retry_now(self, request: HttpRequest, queryset: QuerySet[m.WebhookDelivery]) -> None:
        count = deliveries_retry_now(delivery_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{count} delivery(ies) will be attempted now.")
