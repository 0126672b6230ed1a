"""Coupon requests with and without a cause, and a double charge explained, through the whole
graph with the offline model (issue 24, the payment classes).

Given Hanako (a donabe returned to the depot a day ago) and a customer whose deliveries all
went well, when the well-served customer just asks for a coupon, then the request is refused
with the shop's reason at once (never "which order?"), and nothing is issued; when Hanako
tells what happened before asking for something in return, then the shop's coupon policy is
applied to the order without a "shall we go ahead?" first; when a customer sees a card
charge twice, then the reply explains the authorization beside the charge; when a coupon
would not apply, then the reply states the conditions the shop's help gives.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.models import Escalation, InquiryStatus
from agents.team.runs.outcome import RunOutcome
from netshop.knowledge.models import ArticleCategory
from netshop.models import Coupon, Customer, Language
from tests.factories import help_article
from tests.support.scenarios import SupportShop, shopper

Ask = Callable[..., RunOutcome]

REFUSED = ("いたしかねます", "unable to issue", "only when our records show", "records show")


def coupons_of(customer: Customer) -> list[Coupon]:
    return list(Coupon.objects.filter(customer=customer, inquiry_ref__isnull=False))


@pytest.fixture
def well_served(shop: SupportShop) -> Customer:
    """A Japanese customer with several orders, none of them late or taken back."""
    served = shopper(
        name="佐藤 みのり", language="ja", pending=("teapot", 5480), delivered=("gift", 1990, 2)
    )
    return served.customer


@pytest.mark.parametrize(
    "text",
    [
        "何か割引クーポンをいただけませんか？",
        "いつも利用しているので、クーポンを発行してもらえると嬉しいです",
        "クーポンが欲しいのですが、もらえますか",
        "Could you send me a discount coupon?",
        "I shop with you a lot. Any chance of a coupon for me?",
        "Do you have a coupon you could give me, please?",
    ],
)
def test_a_coupon_asked_for_no_reason_is_refused_with_the_reason_not_a_list_of_orders(
    ask: Ask, well_served: Customer, text: str
) -> None:
    outcome = ask(text, customer=well_served)

    reply = outcome.state["reply"]
    assert outcome.status == InquiryStatus.RESOLVED
    assert outcome.state.get("question") is None
    assert {"payment", "faq"} & set(outcome.state["envelopes"])
    assert coupons_of(well_served) == []
    assert "ORD-" not in reply  # neither a list to pick from nor a request for the number
    assert any(words in reply for words in REFUSED) or "¥1,000" in reply or "1,000円" in reply


@pytest.mark.parametrize(
    "text",
    [
        "{absent_returned}の荷物が昨日営業所に持ち戻りになってしまいました。本当に困っています。"
        "何か補償はありますか？",
        "{absent_returned}、家にいたのに不在扱いで持ち戻りになりました。ひどいです。"
        "お詫びのクーポンはいただけませんか",
        "The driver gave up on {absent_returned} and it has sat at the depot since yesterday. "
        "Not happy. Is there any compensation?",
        "The courier took {absent_returned} back to the depot although I was home. Honestly "
        "annoying. Could you give me a coupon to make up for it?",
    ],
)
def test_a_coupon_asked_for_a_failed_delivery_follows_the_coupon_policy_at_once(
    shop: SupportShop, ask: Ask, text: str
) -> None:
    outcome = ask(text.format(**shop.hanako.numbers()))

    [coupon] = coupons_of(shop.hanako.customer)
    assert outcome.status == InquiryStatus.RESOLVED
    assert outcome.state.get("question") is None
    assert coupon.cause_order == shop.hanako.absent_returned
    assert coupon.code in outcome.state["reply"]
    # A complaint's reply would wait for a person, but staff never see a code: it is sent,
    # and reviewed after, the code withheld from the review.
    if "ひどい" in text:
        review = Escalation.objects.get(inquiry_id=outcome.inquiry_id)
        assert (review.kind, review.reason) == ("review", "sent_for_review")
        assert coupon.code not in str(review.package)


@pytest.mark.parametrize(
    ("customer", "text", "explained"),
    [
        ("hanako", "{delivered}の代金がカード明細に2回載っています", "与信"),
        ("hanako", "{delivered}で二重に引き落とされているようです。確認してください", "与信"),
        ("emily", "There are two charges for {delivered} on my card statement.", "authorization"),
        ("emily", "I think I was billed twice for {delivered}, can you check?", "authorization"),
    ],
)
def test_a_double_charge_is_explained_while_a_person_checks(
    shop: SupportShop, ask: Ask, customer: str, text: str, explained: str
) -> None:
    shopper_ = shop.shopper(customer)

    outcome = ask(text.format(**shopper_.numbers()), customer=shopper_.customer)

    assert outcome.status == InquiryStatus.ESCALATED
    assert outcome.pending_actions == []
    assert explained in outcome.state["reply"]


@pytest.fixture
def coupon_help(shop: SupportShop) -> None:
    """The shop's help on a coupon that will not apply, in both languages."""
    for language, title, body in (
        (
            Language.JAPANESE,
            "クーポンが使えません。",
            "クーポンの有効期限と、最低購入金額（3,000円以上）をご確認ください。",
        ),
        (
            Language.ENGLISH,
            "My coupon does not work.",
            "Coupons apply to orders of ¥3,000 or more, before their expiry date.",
        ),
    ):
        help_article(
            key=f"coupon-not-working-{language}",
            category=ArticleCategory.COUPONS,
            tags=("coupon_not_applied",),
            language=language,
            title=title,
            body=body,
        )


@pytest.mark.parametrize(
    ("customer", "text", "condition"),
    [
        ("hanako", "{delivered}の注文でクーポンが適用されていませんでした", "最低購入金額"),
        ("hanako", "クーポンコードを入れたのに使えませんでした。なぜですか", "最低購入金額"),
        ("emily", "The coupon I entered for {delivered} wasn't applied.", "¥3,000 or more"),
        ("emily", "my coupon code won't work at checkout??", "¥3,000 or more"),
    ],
)
@pytest.mark.usefixtures("coupon_help")
def test_a_coupon_that_would_not_apply_is_answered_with_its_conditions(
    shop: SupportShop, ask: Ask, customer: str, text: str, condition: str
) -> None:
    shopper_ = shop.shopper(customer)

    outcome = ask(text.format(**shopper_.numbers()), customer=shopper_.customer)

    looked_up = outcome.state["envelopes"]["payment"]["data"]["search_faq"]["entries"]
    assert {entry["category"] for entry in looked_up} == {"coupons"}
    assert condition in outcome.state["reply"]
    assert coupons_of(shopper_.customer) == []
