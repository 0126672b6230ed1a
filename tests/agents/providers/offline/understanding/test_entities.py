"""Entity extraction: order and tracking numbers, amounts, dates resolved against a fixed
today, delivery windows, periods and order statuses, in both languages and full-width."""

from __future__ import annotations

import datetime as dt

import pytest

from agents.contract.schemas import Entities
from agents.providers.offline.understanding import extract_entities

TODAY = dt.date(2026, 5, 13)  # a Wednesday


def entities(text: str, today: dt.date = TODAY) -> Entities:
    return extract_entities(text, today=today)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("ORD-4003の返金", ["ORD-4003"]),
        ("ord4003 please", ["ORD-4003"]),
        ("ORD 4003", ["ORD-4003"]),
        ("order #4003", ["ORD-4003"]),
        ("my order number is 4003.", ["ORD-4003"]),
        ("注文番号は4004です", ["ORD-4004"]),
        ("ＯＲＤ－４００３", ["ORD-4003"]),
        ("Cancel ORD-8002, I ordered the wrong color.", ["ORD-8002"]),
        ("ORD-4001 and ORD-4002, and ORD-4001 again", ["ORD-4001", "ORD-4002"]),
        ("order 4000 yen worth of coupons", []),
        ("order 8025/10/03", []),
        ("I have ordered 3 items", []),
    ],
)
def test_order_numbers_are_normalised(text: str, numbers: list[str]) -> None:
    assert entities(text).order_numbers == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("追跡番号4821-7730-1195の状況", ["4821-7730-1195"]),
        ("tracking 482177301195", ["4821-7730-1195"]),
        ("4821 7730 1195", ["4821-7730-1195"]),
        ("４８２１－７７３０－１１９５", ["4821-7730-1195"]),
        ("電話番号は090-1234-5678です", []),
        ("refund 1,000,000,000,000 yen", []),
    ],
)
def test_tracking_numbers_are_normalised(text: str, numbers: list[str]) -> None:
    assert entities(text).tracking_numbers == numbers


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("返金額を50000円に", [50000]),
        ("¥12,800 was charged", [12800]),
        ("￥１２，８００", [12800]),
        ("refund me 1,000,000 yen", [1000000]),
        ("5万円", [50000]),
        ("1万2千円", [12000]),
        ("1.5万円", [15000]),
        ("¥12,800円", [12800]),
        ("3000 JPY and ¥500", [3000, 500]),
        ("3日も遅れた", []),
    ],
)
def test_yen_amounts(text: str, amounts: list[int]) -> None:
    assert entities(text).amounts == amounts


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("Please refund -5000 yen for ORD-4003", []),
        ("ORD-4003を-5000円返金してください", []),
        ("－５０００円返金", []),
        ("refund −¥5,000", []),
        ("minus 5000 yen please", []),
        ("マイナス5000円で", []),
        ("▲5,000円", []),
        ("refund -¥5000, or ¥300 at least", [300]),
        ("3000-5000円くらい", [5000]),  # a range, not a sign
    ],
)
def test_a_negative_amount_is_no_amount(text: str, amounts: list[int]) -> None:
    # Never a refund of the amount without its sign: the text is read as naming none.
    assert entities(text).amounts == amounts


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("明日", ["2026-05-14"]),
        ("tomorrow", ["2026-05-14"]),
        ("明後日", ["2026-05-15"]),
        ("the day after tomorrow", ["2026-05-15"]),
        ("昨日不在でした", ["2026-05-12"]),
        ("3日後", ["2026-05-16"]),
        ("今週土曜の午前", ["2026-05-16"]),
        ("this Saturday", ["2026-05-16"]),
        ("on Saturday", ["2026-05-16"]),
        ("土曜日に", ["2026-05-16"]),
        ("今週水曜", ["2026-05-13"]),
        ("on Wednesday", ["2026-05-20"]),
        ("来週の水曜日", ["2026-05-20"]),
        ("next Wednesday", ["2026-05-20"]),
        ("next Friday", ["2026-05-22"]),
        ("再来週の月曜", ["2026-05-25"]),
        ("12月5日", ["2026-12-05"]),
        ("１２月５日", ["2026-12-05"]),
        ("12/5", ["2026-12-05"]),
        ("2026-12-05", ["2026-12-05"]),
        ("2026年12月5日", ["2026-12-05"]),
        ("Dec 5th", ["2026-12-05"]),
        ("5 December", ["2026-12-05"]),
        ("4月20日に注文した", ["2026-04-20"]),
        ("20日の午前に", ["2026-05-20"]),
        ("until the 10th", ["2026-06-10"]),
        ("3日も遅れた", []),
        ("24/7 support", []),
        ("明日か明後日、tomorrow", ["2026-05-14", "2026-05-15"]),
    ],
)
def test_dates_resolve_against_today(text: str, dates: list[str]) -> None:
    assert entities(text).dates == dates


@pytest.mark.parametrize(
    ("text", "date"),
    [
        # The week named after its day, or before it with "'s": next week's, not this one.
        ("Please bring it on Thursday next week", "2026-05-21"),
        ("could you move it to Saturday next week", "2026-05-23"),
        ("Saturday of next week works for me", "2026-05-23"),
        ("could it be Monday, next week?", "2026-05-18"),
        ("next week's Friday, if possible", "2026-05-22"),
        ("next week on Tuesday please", "2026-05-19"),
        ("the following week's Sunday", "2026-05-24"),
        ("Wednesday the week after next", "2026-05-27"),
        ("来週の金曜日でお願いします", "2026-05-22"),
        ("来週、木曜に", "2026-05-21"),
        ("再来週の火曜", "2026-05-26"),
        # This week's: the coming one, today included.
        ("Friday this week", "2026-05-15"),
        ("this week's Wednesday", "2026-05-13"),
        ("this Friday", "2026-05-15"),
        ("今週の金曜に", "2026-05-15"),
        ("今週水曜", "2026-05-13"),
        # A bare day is the next one after today; "next" with the day is next week's.
        ("on Friday", "2026-05-15"),
        ("金曜日に", "2026-05-15"),
        ("next Monday", "2026-05-18"),
        ("次の月曜", "2026-05-18"),
    ],
)
def test_a_weekday_is_read_in_the_week_named(text: str, date: str) -> None:
    assert entities(text).dates == [date]


@pytest.mark.parametrize(
    ("text", "today", "dates"),
    [
        ("over the weekend", TODAY, ["2026-05-16"]),
        ("this weekend please", TODAY, ["2026-05-16"]),
        ("next weekend", TODAY, ["2026-05-23"]),
        ("週末に届けてほしい", TODAY, ["2026-05-16"]),
        ("今週末で", TODAY, ["2026-05-16"]),
        ("来週末にお願いします", TODAY, ["2026-05-23"]),
        ("this weekend", dt.date(2026, 5, 17), ["2026-05-17"]),  # a Sunday: today
        # A day named wins over the weekend, which only says when the customer is away.
        ("I'm away this weekend, so Friday please", TODAY, ["2026-05-15"]),
        ("週末は留守なので木曜に", TODAY, ["2026-05-14"]),
        # Today is when it was due, not a day asked for (the turns act on days after today).
        ("not today, at the weekend", TODAY, ["2026-05-13", "2026-05-16"]),
    ],
)
def test_the_weekend_is_its_saturday_when_no_day_is_named(
    text: str, today: dt.date, dates: list[str]
) -> None:
    assert entities(text, today=today).dates == dates


def test_the_days_asked_for_come_before_past_days() -> None:
    found = entities("昨日不在で持ち帰られた荷物を土曜か日曜に再配達して")

    assert found.dates == ["2026-05-16", "2026-05-17", "2026-05-12"]


def test_a_day_and_month_near_new_year_takes_the_nearer_year() -> None:
    assert entities("1月5日", today=dt.date(2026, 12, 20)).dates == ["2027-01-05"]
    assert entities("12月28日", today=dt.date(2026, 1, 10)).dates == ["2025-12-28"]


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("午前中に", "08-12"),
        ("Saturday morning", "08-12"),
        ("14時〜16時で", "14-16"),
        ("14時から16時", "14-16"),
        ("14:00-16:00", "14-16"),
        ("between 2 and 4 pm", "14-16"),
        ("2-4pm please", "14-16"),
        ("午後3時以降", "14-16"),
        ("5時以降でお願いします", "16-18"),
        ("at 7pm", "18-21"),
        ("夕方", "18-21"),
        ("今日の夜", "18-21"),
        ("in the evening", "18-21"),
        ("お昼に", "12-14"),
        ("午後", None),
        ("Good morning, where is my order?", None),
        ("24時間以内に", None),
    ],
)
def test_delivery_windows_snap_to_the_carrier_slots(text: str, window: str | None) -> None:
    assert entities(text).time_window == window


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("今月の注文", ("2026-05-01", "2026-05-31")),
        ("this month", ("2026-05-01", "2026-05-31")),
        ("先月の注文", ("2026-04-01", "2026-04-30")),
        ("last month", ("2026-04-01", "2026-04-30")),
        ("10月の注文", ("2025-10-01", "2025-10-31")),
        ("orders I placed in October", ("2025-10-01", "2025-10-31")),
        ("3月に買ったもの", ("2026-03-01", "2026-03-31")),
        ("in May", ("2026-05-01", "2026-05-31")),
        ("2025年12月", ("2025-12-01", "2025-12-31")),
        ("先週", ("2026-05-04", "2026-05-10")),
        ("this week", ("2026-05-11", "2026-05-17")),
        ("過去3ヶ月", ("2026-02-13", "2026-05-13")),
        ("the last 30 days", ("2026-04-13", "2026-05-13")),
        ("去年", ("2025-01-01", "2025-12-31")),
        ("12月5日", None),
        ("今週土曜", None),
    ],
)
def test_periods(text: str, period: tuple[str, str] | None) -> None:
    assert entities(text).date_range == period


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("キャンセル済みの注文", "cancelled"),
        ("cancelled orders", "cancelled"),
        ("It says delivered but nothing is here", "delivered"),
        ("配達完了になっている", "delivered"),
        ("発送済みの注文", "shipped"),
        ("has it shipped?", "shipped"),
        ("未発送の注文", "pending"),
        ("it hasn't shipped yet", "pending"),
        ("pending orders", "pending"),
        ("when will it be delivered", None),
        ("please cancel it", None),
    ],
)
def test_order_status_words(text: str, status: str | None) -> None:
    assert entities(text).order_status == status


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("お届けを3日うしろにずらしてください", 3),
        ("配達日を2日遅くしてください", 2),
        ("到着を一週間ほど遅めにできますか", 7),
        ("配送を2日早めてほしい", -2),
        ("could you push it back two days?", 2),
        ("荷物が2日遅くなりました", None),  # told, not asked
        ("3日後に届けてください", None),  # a day, not a shift
    ],
)
def test_a_shift_of_the_delivery_date_is_read_only_when_asked(text: str, days: int | None) -> None:
    assert entities(text).date_shift_days == days


def test_all_entities_of_one_inquiry_together() -> None:
    found = entities(
        "ＯＲＤ－４００４を来週の水曜日、14時〜16時に再配達して。¥3,000の送料は払います"
    )

    assert found == Entities(
        order_numbers=["ORD-4004"],
        tracking_numbers=[],
        dates=["2026-05-20"],
        time_window="14-16",
        amounts=[3000],
        date_range=None,
        order_status=None,
    )
