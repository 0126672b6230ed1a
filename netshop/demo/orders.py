"""What the demo's customers and orders look like, as plain values (no database).

Dates are relative to ``today`` so that, whenever the demo is seeded, ORD-1002 is still due in
a few days and ORD-1004 was missed yesterday. Everything else comes from a seeded
``random.Random``: the same code and the same day always give the same data.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from itertools import cycle

from netshop.demo import catalog

SEED_PREFIX = "seed-"
SUPPORT_ACTOR = "netshop-support"
_RANDOM_SEED = 20241001
_FIRST_GENERATED_ORDER = 3001


@dataclass(frozen=True)
class CustomerSpec:
    code: str
    name: str
    email: str
    language: str


@dataclass(frozen=True)
class LineSpec:
    sku: str
    quantity: int
    unit_price: int


@dataclass(frozen=True)
class EventSpec:
    status: str
    location: str
    description: str
    occurred_at: datetime


@dataclass(frozen=True)
class ShipmentSpec:
    tracking_number: str
    status: str
    scheduled_date: date
    events: tuple[EventSpec, ...]
    carrier: str = "Yamato"


@dataclass(frozen=True)
class RefundSpec:
    operation_id: str
    amount: int
    reason: str
    created_at: datetime


@dataclass(frozen=True)
class PaymentSpec:
    method: str
    status: str
    authorized_amount: int
    captured_amount: int
    gateway_reference: str
    refunds: tuple[RefundSpec, ...] = ()


@dataclass(frozen=True)
class CancellationSpec:
    operation_id: str
    reason: str
    previous_status: str
    authorization_released: bool
    created_at: datetime


@dataclass(frozen=True)
class OrderSpec:
    number: str
    customer_code: str
    status: str
    placed_at: datetime
    lines: tuple[LineSpec, ...]
    payment: PaymentSpec
    shipment: ShipmentSpec | None = None
    cancellation: CancellationSpec | None = None
    notes: str = ""

    @property
    def total(self) -> int:
        return sum(line.quantity * line.unit_price for line in self.lines)


@dataclass(frozen=True)
class CouponSpec:
    code: str
    customer_code: str
    value: int
    operation_id: str
    expires_at: datetime
    created_at: datetime


@dataclass
class DemoData:
    customers: list[CustomerSpec] = field(default_factory=list)
    orders: list[OrderSpec] = field(default_factory=list)
    coupons: list[CouponSpec] = field(default_factory=list)


@dataclass(frozen=True)
class _Clock:
    """Turns "N days ago at HH:MM" into aware datetimes in the shop's timezone."""

    today: date
    tz: tzinfo

    def at(self, days: int, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(self.today + timedelta(days=days), time(hour, minute), self.tz)

    def on(self, day: date, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(day, time(hour, minute), self.tz)


def build_demo_data(*, today: date, tz: tzinfo) -> DemoData:
    clock = _Clock(today, tz)
    data = DemoData(
        customers=[
            CustomerSpec("C0001", "山田 花子", "hanako.yamada@example.jp", "ja"),
            CustomerSpec("C0002", "Emily Carter", "emily.carter@example.com", "en"),
        ],
        orders=_fixed_orders(clock),
    )
    # Reproducible demo data, not secrets: a seeded PRNG is the point here.
    _add_generated(data, clock, random.Random(_RANDOM_SEED))  # noqa: S311
    _add_retail(data, clock)
    data.orders.extend(_retail_skill_orders(data, clock))
    data.orders.extend(_approval_path_orders(data, clock))
    return data


# --- The fixed orders every demo and test relies on (SPEC section 2) -------------------------


def _fixed_orders(clock: _Clock) -> list[OrderSpec]:
    ord_1002_due = clock.today + timedelta(days=3)
    ord_1004_due = clock.today - timedelta(days=1)
    return [
        OrderSpec(
            "ORD-1001",
            "C0001",
            "pending",
            clock.at(-1, 19, 45),
            (_line("TEA-HOJI-GIFT"),),
            _payment("ORD-1001", "card", "authorized", 3980),
        ),
        OrderSpec(
            "ORD-1002",
            "C0001",
            "shipped",
            clock.at(-3, 21, 5),
            (_line("POT-NAMBU-065"), _line("TEA-MATCHA-UJI")),
            _payment("ORD-1002", "card", "captured", 10960),
            ShipmentSpec(
                "4821-7730-1195",
                "in_transit",
                ord_1002_due,
                _events("in_transit", clock, placed=clock.at(-3, 21, 5), due=ord_1002_due),
            ),
            notes="配達日指定あり",
        ),
        OrderSpec(
            "ORD-1003",
            "C0001",
            "delivered",
            clock.at(-8, 12, 30),
            (_line("KNF-SANTOKU-180"),),
            _payment("ORD-1003", "card", "captured", 12800),
            _shipment("ORD-1003", "delivered", clock, clock.at(-8, 12, 30), clock.today - _days(5)),
        ),
        OrderSpec(
            "ORD-1004",
            "C0001",
            "shipped",
            clock.at(-4, 9, 50),
            (_line("DNB-IGA-8"),),
            _payment("ORD-1004", "card", "captured", 6600),
            _shipment("ORD-1004", "absent_returned", clock, clock.at(-4, 9, 50), ord_1004_due),
        ),
        OrderSpec(
            "ORD-1005",
            "C0001",
            "cancelled",
            clock.at(-6, 22, 10),
            (_line("YKT-YUKATA-M"),),
            _payment("ORD-1005", "card", "voided", 7480),
            cancellation=_cancellation(
                "ORD-1005", "pending", "サイズを間違えて注文したため", clock.at(-5, 10, 15)
            ),
        ),
        OrderSpec(
            "ORD-2001",
            "C0002",
            "delivered",
            clock.at(-12, 8, 20),
            (_line("TWL-IMABARI-BATH", 2),),
            _payment("ORD-2001", "card", "captured", 8600),
            _shipment("ORD-2001", "delivered", clock, clock.at(-12, 8, 20), clock.today - _days(9)),
        ),
        OrderSpec(
            "ORD-2002",
            "C0002",
            "pending",
            clock.at(-1, 22, 30),
            (_line("GLS-EDOKIRIKO"),),
            _payment("ORD-2002", "card", "authorized", 16500),
        ),
    ]


# --- Generated customers and orders ----------------------------------------------------------

# (order status, shipment status or None, payment status, method): every state appears.
_SCENARIOS = (
    ("pending", None, "authorized", "card"),
    ("delivered", "delivered", "captured", "card"),
    ("confirmed", "preparing", "authorized", "card"),
    ("shipped", "in_transit", "captured", "card"),
    ("pending", None, "authorized", "konbini"),
    ("delivered", "delivered", "refunded", "card"),
    ("shipped", "out_for_delivery", "authorized", "cod"),
    ("cancelled", None, "voided", "card"),
    ("confirmed", "preparing", "captured", "bank_transfer"),
    ("delivered", "delivered", "partially_refunded", "konbini"),
    ("pending", None, "failed", "card"),
    ("shipped", "absent_returned", "captured", "card"),
    ("delivered", "delivered", "captured", "cod"),
    ("cancelled", None, "refunded", "bank_transfer"),
    ("delivered", "delivered", "captured", "konbini"),
)

# How many days before today each kind of order was placed (inclusive range).
_PLACED_DAYS_AGO = {
    "pending": (1, 2),
    "preparing": (1, 3),
    "in_transit": (2, 4),
    "out_for_delivery": (2, 4),
    "absent_returned": (4, 7),
    "delivered": (6, 90),
    "cancelled": (3, 40),
}


def _add_generated(data: DemoData, clock: _Clock, rng: random.Random) -> None:
    scenarios = cycle(_SCENARIOS)
    number = _FIRST_GENERATED_ORDER
    taken = {"4821-7730-1195"}
    for index in range(3, 41):
        customer = _generated_customer(index, rng)
        data.customers.append(customer)
        for _ in range(rng.randint(1, 5)):
            scenario = next(scenarios)
            data.orders.append(
                _generated_order(f"ORD-{number}", customer.code, scenario, clock, rng, taken)
            )
            number += 1
        if index % 9 == 4:
            data.coupons.append(_coupon(customer.code, clock, expired=index % 2 == 1))


def _generated_customer(index: int, rng: random.Random) -> CustomerSpec:
    code = f"C{index:04d}"
    if rng.random() < 0.65:
        family, family_romaji = rng.choice(catalog.JA_FAMILY_NAMES)
        given, given_romaji = rng.choice(catalog.JA_GIVEN_NAMES)
        return CustomerSpec(
            code, f"{family} {given}", f"{given_romaji}.{family_romaji}{index}@example.jp", "ja"
        )
    family = rng.choice(catalog.EN_FAMILY_NAMES)
    given = rng.choice(catalog.EN_GIVEN_NAMES)
    email = f"{given.lower()}.{family.lower()}{index}@example.com"
    return CustomerSpec(code, f"{given} {family}", email, "en")


def _generated_order(
    number: str,
    customer_code: str,
    scenario: tuple[str, str | None, str, str],
    clock: _Clock,
    rng: random.Random,
    taken: set[str],
) -> OrderSpec:
    status, shipment_status, payment_status, method = scenario
    low, high = _PLACED_DAYS_AGO[shipment_status or status]
    placed = clock.at(-rng.randint(low, high), rng.randint(8, 22), rng.choice((0, 15, 30, 45)))
    products = rng.sample(catalog.PRODUCTS, k=rng.choice((1, 1, 2, 2, 3)))
    lines = tuple(_line(p.sku, rng.choice((1, 1, 1, 2, 3))) for p in products)
    total = sum(line.quantity * line.unit_price for line in lines)
    shipment = None
    if shipment_status:
        due = _due_date(shipment_status, clock, placed, rng)
        shipment = _shipment(number, shipment_status, clock, placed, due, taken=taken)
    cancellation = None
    refunded_at = placed + timedelta(days=5, hours=3)
    if status == "cancelled":
        released = payment_status == "voided"
        reason = "お客様のご都合によるキャンセル" if rng.random() < 0.5 else "Changed my mind"
        refunded_at = placed + timedelta(hours=rng.randint(2, 30))
        cancellation = _cancellation(number, "confirmed", reason, refunded_at, released=released)
    refunds = _generated_refunds(number, payment_status, lines, total, refunded_at)
    return OrderSpec(
        number,
        customer_code,
        status,
        placed,
        lines,
        _payment(number, method, payment_status, total, refunds),
        shipment,
        cancellation,
    )


def _due_date(shipment_status: str, clock: _Clock, placed: datetime, rng: random.Random) -> date:
    if shipment_status == "preparing":
        return clock.today + _days(rng.randint(2, 5))
    if shipment_status == "in_transit":
        return clock.today + _days(rng.randint(1, 4))
    if shipment_status == "out_for_delivery":
        return clock.today
    if shipment_status == "absent_returned":
        return clock.today - _days(rng.randint(1, 2))
    return placed.date() + _days(rng.randint(2, 4))


def _generated_refunds(
    number: str, payment_status: str, lines: tuple[LineSpec, ...], total: int, at: datetime
) -> tuple[RefundSpec, ...]:
    if payment_status == "refunded":
        return (RefundSpec(f"{SEED_PREFIX}refund-{number}", total, "返品受付 / Return", at),)
    if payment_status == "partially_refunded":
        amount = lines[0].unit_price if lines[0].unit_price < total else total // 2
        reason = "一部商品の破損 / One item damaged"
        return (RefundSpec(f"{SEED_PREFIX}refund-{number}", amount, reason, at),)
    return ()


# --- Returns, exchanges and item changes (issue 13): two customers of their own -------------
# Their own customers, so that C0001's and C0002's fixed orders stay the only ones that fit a
# request naming no order (a new delivered order there would make "refund please" a question).


def _add_retail(data: DemoData, clock: _Clock) -> None:
    data.customers += [
        CustomerSpec("C0101", "佐々木 美穂", "miho.sasaki@example.jp", "ja"),
        CustomerSpec("C0102", "Olivia Bennett", "olivia.bennett@example.com", "en"),
    ]
    taken = {order.shipment.tracking_number for order in data.orders if order.shipment}
    for number, code, lines, delivered_days_ago in _RETAIL_ORDERS:
        data.orders.append(_retail_order(number, code, lines, delivered_days_ago, clock, taken))


# (number, customer, lines, delivered how many days ago; None: still pending)
_RETAIL_ORDERS: tuple[tuple[str, str, tuple[tuple[str, int], ...], int | None], ...] = (
    # a ¥2,200 mug and a ¥3,520 fan, delivered within the return window: return or refund one
    ("ORD-5101", "C0101", (("MUG-ARITA-AI", 1), ("SNS-KYOSENSU", 1)), 3),
    ("ORD-5102", "C0101", (("BWL-MINO-PAIR", 1), ("CHP-WAKASA", 1)), 25),  # window passed
    ("ORD-5103", "C0101", (("TSH-LOGO-M", 1),), 2),  # size L in stock: an exchange
    ("ORD-5104", "C0101", (("TWL-IMABARI-FACE", 2), ("TNG-FUJI", 1), ("CHP-WAKASA", 1)), None),
    ("ORD-5201", "C0102", (("MUG-ARITA-AI", 1), ("FRS-FUROSHIKI-70", 1)), 4),
    ("ORD-5202", "C0102", (("POT-NAMBU-065", 1),), 30),
    ("ORD-5203", "C0102", (("TSH-LOGO-L", 1),), 3),  # size M in stock
    ("ORD-5204", "C0102", (("TEA-MATCHA-UJI", 2), ("SLP-WASHI", 1)), None),
)


def _retail_order(
    number: str,
    code: str,
    skus: tuple[tuple[str, int], ...],
    delivered_days_ago: int | None,
    clock: _Clock,
    taken: set[str],
) -> OrderSpec:
    lines = tuple(_line(sku, quantity) for sku, quantity in skus)
    total = sum(line.quantity * line.unit_price for line in lines)
    if delivered_days_ago is None:
        placed = clock.at(-1, 20, 15)
        return OrderSpec(
            number, code, "pending", placed, lines, _payment(number, "card", "authorized", total)
        )
    due = clock.today - _days(delivered_days_ago)
    placed = clock.on(due - _days(3), 10, 30)
    shipment = _shipment(number, "delivered", clock, placed, due, taken=taken)
    payment = _payment(number, "card", "captured", total)
    return OrderSpec(number, code, "delivered", placed, lines, payment, shipment)


# --- Orders for trying the address change, the refund status and the receipt ----------------
# Appended after everything else so that no earlier order's number or data moves. None is on
# its way or delivered: "where is my parcel" and "I want my money back" keep the answers they
# had for C0001 and C0002.


def _retail_skill_orders(data: DemoData, clock: _Clock) -> list[OrderSpec]:
    taken = {order.shipment.tracking_number for order in data.orders if order.shipment}
    orders: list[OrderSpec] = []
    for customer, first in (("C0001", 1011), ("C0002", 2011)):
        placed = clock.at(-1, 10, 20)
        due = clock.today + _days(3)
        # Labelled at the warehouse, not yet picked up: the address can still change.
        orders.append(
            OrderSpec(
                f"ORD-{first}",
                customer,
                "confirmed",
                placed,
                (_line("BWL-MINO-PAIR"), _line("CHP-WAKASA", 2)),
                _payment(f"ORD-{first}", "card", "authorized", 6600),
                _shipment(f"ORD-{first}", "preparing", clock, placed, due, taken=taken),
            )
        )
        orders.append(_refunded_cancellation(f"ORD-{first + 1}", customer, clock))
        # Paid in advance by bank transfer, not shipped yet: a receipt (領収書) can be issued.
        orders.append(
            OrderSpec(
                f"ORD-{first + 2}",
                customer,
                "confirmed",
                clock.at(-2, 15, 5),
                (_line("SNS-KYOSENSU"), _line("INC-KYOTO")),
                _payment(f"ORD-{first + 2}", "bank_transfer", "captured", 5060),
            )
        )
    return orders


# --- Orders for trying the approvals: four eyes and the operator limit ----------------------
# Appended last, so no earlier order moves. Delivered and paid by card, so a refund can be
# asked for from /help/: ¥38,500 needs a manager's second approval (the policy's four-eyes
# amount, initially NETSHOP_FOUR_EYES_YEN, 30,000), ¥132,000 is above what an operator may
# approve (its operator limit, initially NETSHOP_OPERATOR_LIMIT_YEN, 100,000). Under the
# environment's values, that is: a manager who changes the policy at /audit/policy/ moves
# these lines (``netshop.policy``). Pieces no other order of theirs holds, delivered before
# ORD-1003 and ORD-2001:
# "the knife", "the towels" and "the parcel on its way" still point at the orders they did.


def _approval_path_orders(data: DemoData, clock: _Clock) -> list[OrderSpec]:
    taken = {order.shipment.tracking_number for order in data.orders if order.shipment}
    orders: list[OrderSpec] = []
    for customer, first in (("C0001", 1021), ("C0002", 2021)):
        for number, sku, delivered_days_ago in (
            (first, "JBK-WAJIMA-3", 11),
            (first + 1, "VAS-KUTANI", 13),
        ):
            due = clock.today - _days(delivered_days_ago)
            placed = clock.on(due - _days(3), 14, 10)
            lines = (_line(sku),)
            total = sum(line.quantity * line.unit_price for line in lines)
            orders.append(
                OrderSpec(
                    f"ORD-{number}",
                    customer,
                    "delivered",
                    placed,
                    lines,
                    _payment(f"ORD-{number}", "card", "captured", total),
                    _shipment(f"ORD-{number}", "delivered", clock, placed, due, taken=taken),
                )
            )
    return orders


def _refunded_cancellation(number: str, customer: str, clock: _Clock) -> OrderSpec:
    """Cancelled after the card was charged, and refunded in full four days ago."""
    lines = (_line("YKT-YUKATA-L"),)
    total = sum(line.quantity * line.unit_price for line in lines)
    refunded_at = clock.at(-4, 11, 30)
    refund = RefundSpec(
        f"{SEED_PREFIX}refund-{number}", total, "キャンセル / Cancelled", refunded_at
    )
    reason = "サイズ違いのためキャンセル / Wrong size, cancelled"
    return OrderSpec(
        number,
        customer,
        "cancelled",
        clock.at(-9, 20, 40),
        lines,
        _payment(number, "card", "refunded", total, (refund,)),
        cancellation=_cancellation(
            number, "confirmed", reason, clock.at(-4, 11, 0), released=False
        ),
    )


# --- Building blocks -------------------------------------------------------------------------


def _days(count: int) -> timedelta:
    return timedelta(days=count)


def _line(sku: str, quantity: int = 1) -> LineSpec:
    return LineSpec(sku, quantity, catalog.PRICES[sku])


def _payment(
    number: str, method: str, status: str, total: int, refunds: tuple[RefundSpec, ...] = ()
) -> PaymentSpec:
    captured = total if status in {"captured", "refunded", "partially_refunded"} else 0
    authorized = 0 if status == "failed" else total
    reference = "pi_" + hashlib.sha256(f"payment:{number}".encode()).hexdigest()[:24]
    return PaymentSpec(method, status, authorized, captured, reference, refunds)


def _cancellation(
    number: str, previous: str, reason: str, at: datetime, *, released: bool = True
) -> CancellationSpec:
    return CancellationSpec(f"{SEED_PREFIX}cancel-{number}", reason, previous, released, at)


def _shipment(
    number: str,
    status: str,
    clock: _Clock,
    placed: datetime,
    due: date,
    *,
    taken: set[str] | None = None,
) -> ShipmentSpec:
    tracking = _tracking_number(number, taken if taken is not None else set())
    return ShipmentSpec(tracking, status, due, _events(status, clock, placed=placed, due=due))


def _tracking_number(number: str, taken: set[str]) -> str:
    salt = 0
    while True:
        digest = hashlib.sha256(f"tracking:{number}:{salt}".encode()).hexdigest()
        digits = f"{int(digest, 16) % 10**12:012d}"
        tracking = f"{digits[:4]}-{digits[4:8]}-{digits[8:]}"
        if tracking not in taken:
            taken.add(tracking)
            return tracking
        salt += 1


def _depot(due: date) -> str:
    return catalog.DEPOTS[due.toordinal() % len(catalog.DEPOTS)]


def _events(status: str, clock: _Clock, *, placed: datetime, due: date) -> tuple[EventSpec, ...]:
    """The carrier's scan history up to ``status``; no scan lies in the future."""
    events = [
        EventSpec(
            "preparing",
            catalog.WAREHOUSE,
            "出荷準備中 / Preparing for shipment",
            placed + timedelta(hours=2),
        )
    ]
    if status == "preparing":
        return tuple(events)
    events.append(
        EventSpec(
            "in_transit",
            catalog.HUB,
            "発送済み・輸送中 / Shipped, in transit",
            placed + timedelta(hours=22),
        )
    )
    if status == "in_transit":
        return tuple(events)
    events.append(
        EventSpec(
            "out_for_delivery", _depot(due), "配達中 / Out for delivery", clock.on(due, 7, 30)
        )
    )
    if status == "delivered":
        events.append(
            EventSpec("delivered", _depot(due), "配達完了 / Delivered", clock.on(due, 13, 40))
        )
    elif status == "absent_returned":
        events.append(
            EventSpec(
                "absent_returned",
                _depot(due),
                "ご不在のため持ち戻り（不在票投函）/ Nobody home: taken back to the depot, "
                "notice left",
                clock.on(due, 14, 25),
            )
        )
    return tuple(events)


def _coupon(customer_code: str, clock: _Clock, *, expired: bool) -> CouponSpec:
    issued = clock.at(-120 if expired else -10, 11)
    return CouponSpec(
        f"SORRY-{customer_code}",
        customer_code,
        500,
        f"{SEED_PREFIX}coupon-{customer_code}",
        issued + timedelta(days=90),
        issued,
    )
