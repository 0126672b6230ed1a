"""A staff member's saved language and time zone reach every staff page, not the console's
alone; customers and visitors keep the browser's language."""

from __future__ import annotations

import re
import uuid
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from netshop.audit import audit_record
from netshop.roles import Role
from operators.preferences import staff_preference_set
from tests.operators.api_helpers import signed_in, staff_user

pytestmark = pytest.mark.django_db

INQUIRY = uuid.UUID("3f1c2a9e-7d4b-4c1e-9a61-0b5e2f8d7c10")


@pytest.mark.parametrize(
    "url",
    [
        "/console/",
        "/console/conversations/",
        "/audit/",
        f"/audit/inquiries/{INQUIRY}/",
        "/audit/dashboard/",
        "/audit/autonomy/",
    ],
)
def test_every_staff_page_follows_the_saved_language_over_the_browser(url: str) -> None:
    manager = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=manager, language="ja", time_zone="Asia/Tokyo")
    audit_record(action="inquiry.received", actor="channel:web", inquiry_id=INQUIRY)

    response = signed_in(manager).get(url, HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assert response["Content-Language"] == "ja"
    assert '<html lang="ja">' in response.content.decode()


def test_the_audit_pages_show_times_in_the_saved_time_zone() -> None:
    manager = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=manager, language="en", time_zone="America/New_York")
    entry = audit_record(action="inquiry.received", actor="channel:web", inquiry_id=INQUIRY)

    page = signed_in(manager).get(f"/audit/inquiries/{INQUIRY}/").content.decode()

    new_york = timezone.localtime(entry.created_at, ZoneInfo("America/New_York"))
    assert re.findall(r'<td class="when"><time [^>]+>([^<]+)</time>', page) == [
        f"{new_york:%Y-%m-%d %H:%M:%S}"  # not the shop's Tokyo time, 13 or 14 hours ahead
    ]


def test_a_blank_saved_language_follows_the_browser() -> None:
    manager = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=manager, language="", time_zone="Asia/Tokyo")

    response = signed_in(manager).get("/audit/", HTTP_ACCEPT_LANGUAGE="ja")

    assert response["Content-Language"] == "ja"


def test_a_signed_in_customer_keeps_the_browsers_language_and_the_shops_time_zone() -> None:
    customer = staff_user("okyakusama", None)  # signed in, no staff member
    staff_preference_set(user=customer, language="ja", time_zone="Europe/Berlin")

    response = signed_in(customer).get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")

    assert response["Content-Language"] == "en"
    assert timezone.get_current_timezone_name() == "Asia/Tokyo"


def test_the_json_api_keeps_the_language_its_client_asks_for() -> None:
    manager = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=manager, language="ja", time_zone="Asia/Tokyo")

    response = signed_in(manager).get("/api/v1/escalations", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assert response["Content-Language"] == "en"
