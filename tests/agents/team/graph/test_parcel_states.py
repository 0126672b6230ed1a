"""A new delivery date, a redelivery, by the parcel's state, through the whole graph (issue 24).

Given Hanako's orders (``support_shop``: a teapot in transit due in three days, a donabe
returned to the depot a day ago), when she asks in Japanese or English for another delivery day,
then a parcel on its way moves to the day named (next week's Saturday is next week's), a
parcel back at the depot is booked for a redelivery with the time window asked for (and is
never called "out for delivery"), and a parcel already out for delivery today is refused with
the reason and what to do instead, without a question about the date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from agents.models import InquiryStatus
from agents.team.runs.outcome import RunOutcome
from netshop.models import DeliveryDateChange, Redelivery, Shipment, ShipmentStatus
from netshop.shop_time import shop_today
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


def out_for_delivery_today(shop: SupportShop) -> str:
    """Hanako's teapot, put on the driver's van this morning; its order number."""
    order = shop.hanako.in_transit
    Shipment.objects.filter(order=order).update(
        status=ShipmentStatus.OUT_FOR_DELIVERY, scheduled_date=shop_today()
    )
    return order.number


def next_weeks(weekday: int) -> dt.date:
    today = shop_today()
    return today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=1, days=weekday)


# --- a parcel on its way: the day named ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "weekday", "expected"),
    [
        ("{in_transit}の配達日を来週の土曜日に変更してください", 5, "お届け日を"),
        ("Could you move {in_transit} to Saturday next week?", 5, "delivery date of order"),
        ("I'd rather get {in_transit} on next week's Friday, please.", 4, "delivery date of order"),
    ],
)
def test_a_weekday_of_next_week_moves_the_parcel_to_next_week(
    shop: SupportShop, ask: Ask, text: str, weekday: int, expected: str
) -> None:
    outcome = ask(text.format(**shop.hanako.numbers()))

    assert outcome.status == InquiryStatus.RESOLVED
    assert expected in outcome.state["reply"]
    change = DeliveryDateChange.objects.get()
    assert change.new_date == next_weeks(weekday)


# --- a parcel taken back to the depot: a redelivery ------------------------------------------


@pytest.mark.parametrize(
    ("text", "days", "window", "expected"),
    [
        ("{absent_returned}の配達日を明後日の夜に変更してください", 2, "18-21", "再配達を"),
        (
            "{absent_returned}、別の日に届けてほしいです。明日の14時から16時で",
            1,
            "14-16",
            "再配達を",
        ),
        (
            "Could you deliver {absent_returned} the day after tomorrow in the evening instead?",
            2,
            "18-21",
            "We have booked a redelivery",
        ),
        (
            "Please change the delivery day of {absent_returned} to tomorrow, 2-4pm.",
            1,
            "14-16",
            "We have booked a redelivery",
        ),
    ],
)
def test_a_new_day_for_a_parcel_back_at_the_depot_books_a_redelivery(
    shop: SupportShop, ask: Ask, text: str, days: int, window: str, expected: str
) -> None:
    outcome = ask(text.format(**shop.hanako.numbers()))

    reply = outcome.state["reply"]
    assert outcome.status == InquiryStatus.RESOLVED, reply
    assert expected in reply
    assert "out for delivery" not in reply
    assert "配達中" not in reply
    redelivery = Redelivery.objects.get()
    assert redelivery.shipment.order == shop.hanako.absent_returned
    assert (redelivery.slot_date, redelivery.slot_window) == (
        shop_today() + dt.timedelta(days=days),
        window,
    )
    assert DeliveryDateChange.objects.count() == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{in_transit}を明日の午前に再配達してください", "お届け日の変更を承ります"),
        (
            "Please redeliver {in_transit} tomorrow morning",
            "we can change its delivery date instead",
        ),
    ],
)
def test_a_redelivery_of_a_parcel_still_on_its_way_is_refused_with_the_date_change_offered(
    shop: SupportShop, ask: Ask, text: str, expected: str
) -> None:
    outcome = ask(text.format(**shop.hanako.numbers()))

    assert outcome.status == InquiryStatus.RESOLVED
    assert expected in outcome.state["reply"]
    assert Redelivery.objects.count() == 0


# --- a parcel out for delivery today: refused, with the way out ------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "{order}のお届け日を変更したいです",
            "本日すでに配達に出ているため、お届け日を変更できません",
        ),
        ("{order}は今日届く予定ですが、別の日にしてほしいです", "再配達をお申し付けください"),
        ("{order}の配達日を来週の月曜日に変更してください", "お届け日を変更できません"),
        (
            "Can {order} be delivered on another day instead?",
            "already out for delivery today, so its delivery date can no longer be changed",
        ),
        (
            "I'd like to change the delivery day for {order}, today doesn't work for me",
            "you can then ask us for a redelivery",
        ),
        ("Please deliver {order} next Tuesday instead of today", "can no longer be changed"),
    ],
)
def test_a_new_date_for_a_parcel_out_for_delivery_is_refused_with_why_and_what_instead(
    shop: SupportShop, ask: Ask, text: str, expected: str
) -> None:
    number = out_for_delivery_today(shop)

    outcome = ask(text.format(order=number))

    assert outcome.status == InquiryStatus.RESOLVED
    assert expected in outcome.state["reply"]
    assert DeliveryDateChange.objects.count() == 0
    assert Redelivery.objects.count() == 0
