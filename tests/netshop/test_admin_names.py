"""The admin names every model it lists in plain English: no "redeliverys", no "api token".

Django's default plural adds an "s", which is wrong for words such as "delivery" or "entry";
the list below is what a reader of the admin index sees, checked word by word.
"""

from __future__ import annotations

import pytest
from django.contrib import admin

OUR_APPS = {"netshop", "agents", "operators"}

# The admin index, as it should read (singular, plural), for every model of our apps.
EXPECTED_NAMES = {
    "netshop.Customer": ("customer", "customers"),
    "netshop.Product": ("product", "products"),
    "netshop.Order": ("order", "orders"),
    "netshop.Shipment": ("shipment", "shipments"),
    "netshop.Payment": ("payment", "payments"),
    "netshop.Refund": ("refund", "refunds"),
    "netshop.Cancellation": ("cancellation", "cancellations"),
    "netshop.Redelivery": ("redelivery", "redeliveries"),
    "netshop.DeliveryDateChange": ("delivery date change", "delivery date changes"),
    "netshop.AddressChange": ("address change", "address changes"),
    "netshop.Receipt": ("receipt", "receipts"),
    "netshop.Coupon": ("coupon", "coupons"),
    "netshop.GatewayTransaction": ("gateway transaction", "gateway transactions"),
    "netshop.CarrierBooking": ("carrier booking", "carrier bookings"),
    "netshop.HelpArticle": ("help article", "help articles"),
    "netshop.ApiToken": ("API token", "API tokens"),
    "netshop.WebhookDelivery": ("webhook delivery", "webhook deliveries"),
    "operators.CannedReply": ("canned reply", "canned replies"),
}

# Plurals Django's "add an s" gets wrong: a word ending in a consonant and "y" takes "ies".
MISSPELT = ("ys", "entrys", "replys", "deliverys")


def admin_names() -> dict[str, tuple[str, str]]:
    return {
        model._meta.label: (str(model._meta.verbose_name), str(model._meta.verbose_name_plural))
        for model in admin.site._registry
        if model._meta.app_label in OUR_APPS
    }


def test_every_admin_model_of_ours_is_named_as_the_list_says() -> None:
    assert admin_names() == EXPECTED_NAMES


def test_no_admin_model_has_a_plural_made_by_adding_s_to_a_y() -> None:
    wrong = {
        str(model._meta.verbose_name_plural)
        for model in admin.site._registry
        if any(str(model._meta.verbose_name_plural).endswith(bad) for bad in MISSPELT)
        and not str(model._meta.verbose_name_plural).endswith(("ays", "eys", "oys", "uys"))
    }

    assert wrong == set()


@pytest.mark.django_db
def test_the_admin_index_shows_redeliveries(admin_client) -> None:
    page = admin_client.get("/admin/")

    assert page.status_code == 200
    assert "Redeliveries" in page.content.decode()
    assert "Redeliverys" not in page.content.decode()
