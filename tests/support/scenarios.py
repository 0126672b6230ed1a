"""Named shop states for tests, built with the factories of ``tests/factories.py``.

Each scenario states the facts a test may rely on (who, which order, in which state, for how
much) and returns the rows it made, so a test asserts on ``shop.delivered.number`` and the
amount its scenario set, never on the demo shop written for people to try the console on.

Order numbers are ``ORD-`` and four digits, as customers type them (the message reader knows
no other shape), from a range the demo never uses: ``order_number()`` hands out the next one.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, fields
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from netshop.adapters.place_names import DEPOTS, HUB, WAREHOUSE
from netshop.knowledge.models import ArticleCategory, ArticleVersion
from netshop.models import (
    Cancellation,
    Customer,
    Language,
    Order,
    OrderLine,
    OrderStatus,
    PaymentMethod,
    PaymentStatus,
    Product,
    Refund,
    ShipmentStatus,
)
from netshop.shop_time import SHOP_TZ, shop_today
from tests.factories import (
    ArticleVersionFactory,
    CustomerFactory,
    HelpArticleFactory,
    OrderFactory,
    PaymentFactory,
    ProductFactory,
    ShipmentEventFactory,
    ShipmentFactory,
)

# The operation ids of the support actions a scenario writes as history (a refund, a
# cancellation), so that a test counts only what its run did: ``exclude(operation_id__startswith=
# SCENARIO_PREFIX)``.
SCENARIO_PREFIX = "scenario-"
_NUMBERS = itertools.count()
_TRACKING = itertools.count(1)


def order_number() -> str:
    """The next order number a customer can name in a message: ORD-6001, ORD-6002, ..."""
    return f"ORD-{6001 + next(_NUMBERS) % 2999}"


def tracking_number() -> str:
    """The next tracking number in the carrier's shape, twelve digits in fours (6100-0000-0001
    ...), as a customer types it: the message reader knows no other shape (the factory's own
    sequence leaves that shape after its thousandth shipment)."""
    digits = f"{610000000000 + next(_TRACKING) % 10**8:012d}"
    return f"{digits[:4]}-{digits[4:8]}-{digits[8:]}"


def customer_login(customer: Customer) -> User:
    """A login for ``customer``'s help page (the customer's own pages and downloads)."""
    user = User.objects.create_user(f"login-{customer.code.lower()}", email=customer.email)
    customer.user = user
    customer.save(update_fields=["user"])
    return user


def _product(name: str, name_en: str, price: int, **fields: Any) -> Product:
    return ProductFactory.create(name=name, name_en=name_en, price=price, stock=20, **fields)


def _order(
    customer: Customer,
    status: str,
    lines: list[tuple[Product, int]],
    *,
    placed_days_ago: int,
    **fields: Any,
) -> Order:
    total = sum(product.price * quantity for product, quantity in lines)
    placed = timezone.now() - dt.timedelta(days=placed_days_ago)
    order = OrderFactory.create(
        number=order_number(),
        customer=customer,
        status=status,
        total=total,
        placed_at=placed,
        lines=False,
        **fields,
    )
    for product, quantity in lines:
        OrderLine.objects.create(
            order=order, product=product, quantity=quantity, unit_price=product.price
        )
    return order


def _pay(order: Order, status: str, *, method: str = PaymentMethod.CARD) -> None:
    captured = order.total if status in {PaymentStatus.CAPTURED, PaymentStatus.REFUNDED} else 0
    PaymentFactory.create(
        order=order,
        method=method,
        status=status,
        authorized_amount=order.total,
        captured_amount=captured,
    )


_LAST_SCAN: dict[str, str] = {
    ShipmentStatus.DELIVERED: "配達完了 / Delivered",
    ShipmentStatus.ABSENT_RETURNED: "ご不在のため持ち戻り（不在票投函）/ Nobody home: taken back",
}


def _ship(order: Order, status: str, *, due_in_days: int) -> None:
    """A shipment in ``status`` due ``due_in_days`` from today, with the scans that led there."""
    scheduled = shop_today() + dt.timedelta(days=due_in_days)
    shipment = ShipmentFactory.create(
        order=order,
        status=status,
        scheduled_date=scheduled,
        tracking_number=tracking_number(),
    )
    placed = order.placed_at
    scans: list[tuple[str, str, dt.datetime, str]] = [
        (
            ShipmentStatus.PREPARING,
            WAREHOUSE,
            placed + dt.timedelta(hours=2),
            "出荷準備中 / Preparing for shipment",
        )
    ]
    if status != ShipmentStatus.PREPARING:
        scans.append(
            (
                ShipmentStatus.IN_TRANSIT,
                HUB,
                placed + dt.timedelta(hours=22),
                "発送済み・輸送中 / Shipped, in transit",
            )
        )
    # The morning of the promised day in the shop's time zone: "now" plus six hours would
    # cross the shop's midnight in the evening, and a parcel delivered on time would read late.
    due_morning = dt.datetime.combine(scheduled, dt.time(9), tzinfo=SHOP_TZ)
    if status in {ShipmentStatus.DELIVERED, ShipmentStatus.ABSENT_RETURNED}:
        scans.append(
            (ShipmentStatus.OUT_FOR_DELIVERY, DEPOTS[0], due_morning, "配達中 / Out for delivery")
        )
        last = _LAST_SCAN[status]
        scans.append((status, DEPOTS[0], due_morning + dt.timedelta(hours=6), last))
    for scan, location, occurred_at, description in scans:
        ShipmentEventFactory.create(
            shipment=shipment,
            status=scan,
            location=location,
            occurred_at=occurred_at,
            description=description,
        )


def _cancel(order: Order, *, previous_status: str, reason: str, released: bool) -> None:
    Cancellation.objects.create(
        order=order,
        operation_id=f"{SCENARIO_PREFIX}cancel-{order.number}",
        reason=reason,
        previous_status=previous_status,
        authorization_released=released,
        actor="netshop-support",
        created_at=order.placed_at + dt.timedelta(days=1),
    )


@dataclass(frozen=True)
class Shopper:
    """One customer's orders: ``pending`` (authorized, cancellable), ``delivered`` (captured,
    delivered five days ago), ``preparing`` (labelled at the warehouse: its address can still
    change), ``refunded_cancellation`` (cancelled after the charge, refunded in full) and
    ``bank_transfer`` (paid in advance by transfer, not shipped: a receipt can be issued)."""

    customer: Customer
    pending: Order
    delivered: Order
    preparing: Order
    refunded_cancellation: Order
    bank_transfer: Order

    def numbers(self) -> dict[str, str]:
        """Each order's number by its role, e.g. ``{"delivered": "ORD-6003", ...}``: what a
        message template such as ``"{delivered}が壊れていました"`` is filled with."""
        return {
            field.name: getattr(self, field.name).number
            for field in fields(self)
            if field.name != "customer"
        }


@dataclass(frozen=True)
class BusyShopper(Shopper):
    """A ``Shopper`` who also has ``in_transit`` (captured, due in three days),
    ``absent_returned`` (returned to the depot the day before) and ``cancelled`` (authorization
    released) orders."""

    in_transit: Order
    absent_returned: Order
    cancelled: Order


@dataclass(frozen=True)
class SupportShop:
    """Hanako (Japanese, a ``BusyShopper``) and Emily (English, a ``Shopper``)."""

    hanako: BusyShopper
    emily: Shopper

    def shopper(self, name: str) -> Shopper:
        """``"hanako"`` or ``"emily"``, for tests parametrized by who writes."""
        found: Shopper = getattr(self, name)
        return found


# What each kind of order holds, in Japanese and English: the reader matches a customer's
# words ("the towel", "包丁") against these names.
_NAMES = {
    "gift": ("ほうじ茶ギフトセット", "Hojicha Gift Set"),
    "glass": ("江戸切子 グラス", "Edo Kiriko Glass"),
    "knife": ("三徳包丁 18cm", "Santoku Knife 18 cm"),
    "towel": ("今治タオル バスタオル", "Imabari Bath Towel"),
    "teapot": ("南部鉄器 急須", "Nambu Cast-Iron Teapot"),
    "donabe": ("伊賀焼 土鍋", "Iga-ware Donabe Clay Pot"),
    "yukata": ("綿紅梅 浴衣 Mサイズ", "Cotton Yukata, Size M"),
    "bowls": ("美濃焼 茶碗 ペア", "Mino-ware Rice Bowls, Pair"),
    "chopsticks": ("若狭塗 箸", "Wakasa Lacquered Chopsticks"),
    "yukata_l": ("綿紅梅 浴衣 Lサイズ", "Cotton Yukata, Size L"),
    "fan": ("京扇子", "Kyoto Folding Fan"),
    "incense": ("京都 お香", "Kyoto Incense"),
}


def _product_of(price: int, kind: str) -> Product:
    name, name_en = _NAMES[kind]
    return _product(name, name_en, price)


def shopper(
    *, name: str, language: str, pending: tuple[str, int], delivered: tuple[str, int, int]
) -> Shopper:
    """A customer with the orders of a ``Shopper``: ``pending`` (what, yen) authorized,
    ``delivered`` (what, unit price, quantity) captured; ¥6,600 of bowls and chopsticks being
    prepared, a ¥7,480 yukata cancelled and refunded, ¥5,060 paid by transfer."""
    customer = CustomerFactory.create(name=name, language=language)
    pending_kind, pending_price = pending
    pending_order = _order(
        customer,
        OrderStatus.PENDING,
        [(_product_of(pending_price, pending_kind), 1)],
        placed_days_ago=1,
    )
    _pay(pending_order, PaymentStatus.AUTHORIZED)
    delivered_kind, delivered_price, delivered_quantity = delivered
    delivered_order = _order(
        customer,
        OrderStatus.DELIVERED,
        [(_product_of(delivered_price, delivered_kind), delivered_quantity)],
        placed_days_ago=8,
    )
    _pay(delivered_order, PaymentStatus.CAPTURED)
    _ship(delivered_order, ShipmentStatus.DELIVERED, due_in_days=-5)
    preparing_order = _order(
        customer,
        OrderStatus.CONFIRMED,
        [(_product_of(3300, "bowls"), 1), (_product_of(1650, "chopsticks"), 2)],
        placed_days_ago=1,
    )
    _pay(preparing_order, PaymentStatus.AUTHORIZED)
    _ship(preparing_order, ShipmentStatus.PREPARING, due_in_days=3)
    refunded_order = _order(
        customer, OrderStatus.CANCELLED, [(_product_of(7480, "yukata_l"), 1)], placed_days_ago=9
    )
    _pay(refunded_order, PaymentStatus.REFUNDED)
    Refund.objects.create(
        payment=refunded_order.payment,
        amount=refunded_order.total,
        reason="キャンセル / Cancelled",
        operation_id=f"{SCENARIO_PREFIX}refund-{refunded_order.number}",
        gateway_refund_id=f"re_scenario-{refunded_order.number}",
        actor="netshop-support",
        created_at=timezone.now() - dt.timedelta(days=4),
    )
    _cancel(
        refunded_order,
        previous_status=OrderStatus.CONFIRMED,
        reason="サイズ違いのためキャンセル / Wrong size, cancelled",
        released=False,
    )
    bank_order = _order(
        customer,
        OrderStatus.CONFIRMED,
        [(_product_of(3520, "fan"), 1), (_product_of(1540, "incense"), 1)],
        placed_days_ago=2,
    )
    _pay(bank_order, PaymentStatus.CAPTURED, method=PaymentMethod.BANK_TRANSFER)
    return Shopper(
        customer=customer,
        pending=pending_order,
        delivered=delivered_order,
        preparing=preparing_order,
        refunded_cancellation=refunded_order,
        bank_transfer=bank_order,
    )


def busy_shopper(
    *,
    name: str,
    language: str,
    pending: tuple[str, int],
    delivered: tuple[str, int, int],
    in_transit: tuple[str, int, int],
    absent_returned: int,
    cancelled: int,
) -> BusyShopper:
    """A ``shopper`` who also has an order in transit (what, unit price, quantity), a donabe
    taken back to the depot and a yukata cancelled (yen each)."""
    base = shopper(name=name, language=language, pending=pending, delivered=delivered)
    customer = base.customer
    transit_kind, transit_price, transit_quantity = in_transit
    in_transit_order = _order(
        customer,
        OrderStatus.SHIPPED,
        [(_product_of(transit_price, transit_kind), transit_quantity)],
        placed_days_ago=3,
        notes="配達日指定あり",
    )
    _pay(in_transit_order, PaymentStatus.CAPTURED)
    _ship(in_transit_order, ShipmentStatus.IN_TRANSIT, due_in_days=3)
    absent_order = _order(
        customer,
        OrderStatus.SHIPPED,
        [(_product_of(absent_returned, "donabe"), 1)],
        placed_days_ago=4,
    )
    _pay(absent_order, PaymentStatus.CAPTURED)
    _ship(absent_order, ShipmentStatus.ABSENT_RETURNED, due_in_days=-1)
    cancelled_order = _order(
        customer, OrderStatus.CANCELLED, [(_product_of(cancelled, "yukata"), 1)], placed_days_ago=6
    )
    _pay(cancelled_order, PaymentStatus.VOIDED)
    _cancel(
        cancelled_order,
        previous_status=OrderStatus.PENDING,
        reason="サイズを間違えて注文したため",
        released=True,
    )
    return BusyShopper(
        customer=customer,
        pending=base.pending,
        delivered=base.delivered,
        preparing=base.preparing,
        refunded_cancellation=base.refunded_cancellation,
        bank_transfer=base.bank_transfer,
        in_transit=in_transit_order,
        absent_returned=absent_order,
        cancelled=cancelled_order,
    )


def support_shop() -> SupportShop:
    """Hanako: a ¥3,980 hojicha gift set pending, ¥10,960 in transit (two ¥5,480 teapots), a
    ¥12,800 santoku knife delivered, a ¥6,600 donabe taken back, a ¥7,480 yukata cancelled.
    Emily: a ¥16,500 Edo Kiriko glass pending, ¥8,600 delivered (two ¥4,300 bath towels).
    Each also has the ``shopper`` orders being prepared, refunded and paid by transfer; the
    shop answers the questions of ``support_faq``."""
    support_faq()
    return SupportShop(
        hanako=busy_shopper(
            name="山田 花子",
            language=Language.JAPANESE,
            pending=("gift", 3980),
            delivered=("knife", 12800, 1),
            in_transit=("teapot", 5480, 2),
            absent_returned=6600,
            cancelled=7480,
        ),
        emily=shopper(
            name="Emily Carter",
            language=Language.ENGLISH,
            pending=("glass", 16500),
            delivered=("towel", 4300, 2),
        ),
    )


# The shop's policies as its help articles state them, in Japanese and English (the numbers
# are the rules the services enforce: 14 days to return, 30 for a damaged item, one coupon per
# order): category, key, topic tags, then (title, body) per language.
_ARTICLES: tuple[tuple[str, str, tuple[str, ...], tuple[str, str], tuple[str, str]], ...] = (
    (
        ArticleCategory.RETURNS,
        "return-policy",
        ("return_policy",),
        (
            "返品はできますか？返品期限は何日ですか？",
            "商品到着後14日以内で、未使用・タグ付きの商品であれば返品を承ります。",
        ),
        (
            "Can I return an item? How many days do I have?",
            "Unused items with their tags can be returned within 14 days of delivery.",
        ),
    ),
    (
        ArticleCategory.RETURNS,
        "damaged-item",
        ("damaged",),
        (
            "届いた商品が破損・不良品でした。",
            "商品到着後30日以内にご連絡ください。交換または全額返金いたします。",
        ),
        (
            "My item arrived damaged or defective.",
            "Contact us within 30 days of delivery. We will replace the item or refund it in full.",
        ),
    ),
    (
        ArticleCategory.DELIVERY,
        "tracking",
        ("tracking",),
        (
            "荷物の配送状況を確認したい。",
            "発送完了メールに記載の送り状番号で、マイページから配送状況をご確認いただけます。",
        ),
        (
            "How can I track my package?",
            "Use the tracking number in your shipping confirmation e-mail in My Page.",
        ),
    ),
    (
        ArticleCategory.DELIVERY,
        "missed-delivery",
        ("missed_delivery",),
        (
            "不在で荷物を受け取れませんでした。再配達はどうすればよいですか？",
            "不在票の送り状番号で再配達をお申し込みください。7日以内の日付と時間帯から選べます。",
        ),
        (
            "I missed the delivery. How do I get it redelivered?",
            "Request a redelivery with the tracking number on the notice, within the next 7 days.",
        ),
    ),
    (
        ArticleCategory.DELIVERY,
        "shipping-fee",
        ("shipping_fee",),
        (
            "送料はいくらですか？",
            "全国一律550円（税込）、5,000円以上のご注文で送料無料です。",
        ),
        (
            "How much is shipping?",
            "Shipping is a flat ¥550 (tax included), and free on orders of ¥5,000 or more.",
        ),
    ),
    (
        ArticleCategory.PAYMENT,
        "payment-methods",
        ("payment_methods",),
        (
            "支払い方法は何がありますか？",
            "クレジットカード、コンビニ払い、銀行振込、代金引換がご利用いただけます。",
        ),
        (
            "Which payment methods do you accept?",
            "Credit cards, konbini payment, bank transfer and cash on delivery.",
        ),
    ),
    (
        ArticleCategory.COUPONS,
        "using-coupons",
        ("coupon_use",),
        (
            "クーポンの使い方を教えてください。",
            "ご注文手続きの「クーポンコード」欄にコードを入力してください。1回のご注文につき1枚までです。",
        ),
        (
            "How do I use a coupon?",
            "Enter the code in the 'Coupon code' field at checkout. One coupon per order.",
        ),
    ),
    (
        ArticleCategory.ORDERS,
        "cancel-order",
        ("order_cancellation",),
        (
            "注文をキャンセルしたい。",
            "発送前のご注文はキャンセルできます。サポートまで注文番号をお知らせください。",
        ),
        (
            "How do I cancel an order?",
            "Orders that have not shipped yet can be cancelled: send support your order number.",
        ),
    ),
    (
        ArticleCategory.OTHER,
        "receipts-invoices",
        ("invoice",),
        (
            "領収書・請求書は発行できますか？",
            "マイページの注文履歴から領収書（PDF）をダウンロードできます。宛名はご指定いただけます。",
        ),
        (
            "Can I get a receipt or invoice?",
            "Download a PDF receipt from your order history in My Page; you can set the addressee.",
        ),
    ),
    (
        ArticleCategory.OTHER,
        "gift-wrapping",
        ("gift_wrapping",),
        (
            "ギフトラッピングはできますか？",
            "1商品につき330円（税込）で和紙ラッピングを承ります。",
        ),
        (
            "Do you offer gift wrapping?",
            "Yes: washi-paper wrapping for ¥330 per item (tax included).",
        ),
    ),
)


def support_faq() -> list[ArticleVersion]:
    """The shop's help on returns, damaged items, tracking, redelivery, shipping fees, payment
    methods, coupons, cancelling, receipts and gift wrapping, published in both languages."""
    versions = []
    for category, key, tags, ja, en in _ARTICLES:
        article = HelpArticleFactory.create(key=key, category=category, tags=list(tags))
        for language, (title, body) in ((Language.JAPANESE, ja), (Language.ENGLISH, en)):
            versions.append(
                ArticleVersionFactory.create(
                    article=article, language=language, title=title, body=body
                )
            )
    return versions


# --- Returns, exchanges and item changes ------------------------------------------------------


@dataclass(frozen=True)
class RetailShopper:
    """A customer of the retail skills: ``several_items`` (delivered days ago, within the
    14-day return window: a ¥2,200 Arita mug and one more item), ``window_passed`` (delivered
    weeks ago), ``shirt`` (a T-shirt delivered two days ago, its other size in stock) and
    ``pending`` (several items, not shipped: lines can still be taken off)."""

    customer: Customer
    several_items: Order
    window_passed: Order
    shirt: Order
    pending: Order

    def numbers(self) -> dict[str, str]:
        return {
            field.name: getattr(self, field.name).number
            for field in fields(self)
            if field.name != "customer"
        }


@dataclass(frozen=True)
class RetailShop:
    """Miho writes Japanese, Olivia English; both bought from ``products`` (by name)."""

    products: dict[str, Product]
    miho: RetailShopper
    olivia: RetailShopper

    def shopper(self, name: str) -> RetailShopper:
        """``"miho"`` or ``"olivia"``, for tests parametrized by who writes."""
        found: RetailShopper = getattr(self, name)
        return found


def _retail_products() -> dict[str, Product]:
    def make(sku: str, name: str, name_en: str, price: int, **fields: Any) -> Product:
        return ProductFactory.create(
            sku=sku, name=name, name_en=name_en, price=price, stock=20, **fields
        )

    return {
        "mug": make("MUG-ARITA-AI", "有田焼 マグカップ 藍", "Arita Porcelain Mug, Indigo", 2200),
        "fan": make("SNS-KYOSENSU", "京扇子", "Kyoto Folding Fan", 3520),
        "furoshiki": make(
            "FRS-FUROSHIKI-70", "風呂敷 70cm", "Furoshiki Wrapping Cloth 70 cm", 2750
        ),
        "bowls": make("BWL-MINO-PAIR", "美濃焼 茶碗 ペア", "Mino-ware Rice Bowls, Pair", 3300),
        "chopsticks": make("CHP-WAKASA", "若狭塗 箸", "Wakasa Lacquered Chopsticks", 1650),
        "teapot": make(
            "POT-NAMBU-065", "南部鉄器 急須 0.65L", "Nambu Cast-Iron Teapot 0.65 L", 8800
        ),
        "shirt_m": make(
            "TSH-LOGO-M",
            "NetShop オリジナルTシャツ M",
            "NetShop Original T-Shirt, M",
            2980,
            family="TSH-LOGO",
            variant="M",
        ),
        "shirt_l": make(
            "TSH-LOGO-L",
            "NetShop オリジナルTシャツ L",
            "NetShop Original T-Shirt, L",
            2980,
            family="TSH-LOGO",
            variant="L",
        ),
        "face_towels": make(
            "TWL-IMABARI-FACE",
            "今治タオル フェイスタオル 2枚組",
            "Imabari Face Towels, Set of 2",
            1980,
        ),
        "tenugui": make("TNG-FUJI", "手ぬぐい 富士山柄", "Tenugui Cloth, Mt. Fuji", 990),
        "matcha": make("TEA-MATCHA-UJI", "宇治抹茶 30g", "Uji Matcha 30 g", 2160),
        "slippers": make("SLP-WASHI", "和紙スリッパ", "Washi Paper Slippers", 2420),
    }


def _delivered(customer: Customer, lines: list[tuple[Product, int]], *, days_ago: int) -> Order:
    order = _order(customer, OrderStatus.DELIVERED, lines, placed_days_ago=days_ago + 3)
    _pay(order, PaymentStatus.CAPTURED)
    _ship(order, ShipmentStatus.DELIVERED, due_in_days=-days_ago)
    return order


def delivered_with(
    customer: Customer, items: list[tuple[str, str, int, int]], *, days_ago: int
) -> Order:
    """A captured order of new products (name, English name, yen, quantity) delivered
    ``days_ago``: for shops that already hold the retail products' SKUs (the demo's)."""
    lines = [(_product(name, name_en, price), quantity) for name, name_en, price, quantity in items]
    return _delivered(customer, lines, days_ago=days_ago)


def _not_shipped(customer: Customer, lines: list[tuple[Product, int]]) -> Order:
    order = _order(customer, OrderStatus.PENDING, lines, placed_days_ago=1)
    _pay(order, PaymentStatus.AUTHORIZED)
    return order


def retail_shop() -> RetailShop:
    """Miho: a mug and a fan delivered 3 days ago, bowls and chopsticks 25 days ago, a T-shirt
    M 2 days ago, and face towels (2), a tenugui and chopsticks (¥6,600) not shipped. Olivia: a
    mug and a furoshiki delivered 4 days ago, a teapot 30 days ago, a T-shirt L 3 days ago, and
    matcha (2) and slippers (¥6,740) not shipped."""
    products = _retail_products()
    miho = CustomerFactory.create(name="佐々木 美穂", language=Language.JAPANESE)
    olivia = CustomerFactory.create(name="Olivia Bennett", language=Language.ENGLISH)
    return RetailShop(
        products=products,
        miho=RetailShopper(
            customer=miho,
            several_items=_delivered(
                miho, [(products["mug"], 1), (products["fan"], 1)], days_ago=3
            ),
            window_passed=_delivered(
                miho, [(products["bowls"], 1), (products["chopsticks"], 1)], days_ago=25
            ),
            shirt=_delivered(miho, [(products["shirt_m"], 1)], days_ago=2),
            pending=_not_shipped(
                miho,
                [
                    (products["face_towels"], 2),
                    (products["tenugui"], 1),
                    (products["chopsticks"], 1),
                ],
            ),
        ),
        olivia=RetailShopper(
            customer=olivia,
            several_items=_delivered(
                olivia, [(products["mug"], 1), (products["furoshiki"], 1)], days_ago=4
            ),
            window_passed=_delivered(olivia, [(products["teapot"], 1)], days_ago=30),
            shirt=_delivered(olivia, [(products["shirt_l"], 1)], days_ago=3),
            pending=_not_shipped(olivia, [(products["matcha"], 2), (products["slippers"], 1)]),
        ),
    )
