"""The one error type the shop's rules raise, and the one catalogue of its codes.

Every ``DomainError`` code is declared once in ``CATALOGUE``: the HTTP status it answers
with (the API and the console both read it here) and the message people are told, as a
translatable template. A service raises by code with the template's parameters::

    raise DomainError("claimed_by_other", who=holder)

``message`` is the English text (stable: the API's error bodies and the tests match it);
``localized()`` is the same template in the active language (the console shows it). A code
whose refusals need different wording declares named ``variants``; a rule check that already
describes what it found passes that description as ``detail`` (English, like the checks the
approval hand-off shows), and ``localized()`` falls back to the code's template.

``tests/netshop/test_errors.py`` reads the whole tree and fails on a code raised anywhere
that is not declared here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclasses.dataclass(frozen=True)
class ErrorCode:
    """What one code means: its HTTP status and what people are told (``%(name)s`` params)."""

    status: int
    message: str | Promise
    variants: Mapping[str, str | Promise] = dataclasses.field(default_factory=dict)
    # Told in the console instead of the template, when its details mean little to a person.
    short: str | Promise = ""

    def template(self, variant: str = "") -> str | Promise:
        return self.variants[variant] if variant else self.message


def _e(
    status: int, message: str | Promise, short: str | Promise = "", **variants: str | Promise
) -> ErrorCode:
    return ErrorCode(status=status, message=message, variants=variants, short=short)


UNAUTHENTICATED: Final = 401
FORBIDDEN: Final = 403
NOT_FOUND: Final = 404
CONFLICT: Final = 409
REFUSED: Final = 422

CATALOGUE: Final[Mapping[str, ErrorCode]] = {
    # Who is calling is known, but may not sign in now (401).
    "account_locked": _e(
        UNAUTHENTICATED,
        _(
            "This account is locked after too many failed logins, and its API tokens with it; "
            "they work again once the account is unlocked."
        ),
    ),
    # Something asked for is not there (404).
    "escalation_not_found": _e(
        NOT_FOUND, _("No such escalation."), by_id=_("No escalation with id %(id)s.")
    ),
    "inquiry_not_found": _e(
        NOT_FOUND, _("No such inquiry."), by_id=_("No inquiry with id %(id)s.")
    ),
    "unknown_customer": _e(NOT_FOUND, _("no customer with code %(code)s")),
    "article_not_found": _e(NOT_FOUND, _("No help article %(key)s.")),
    # Somebody else got there first (409).
    "already_decided": _e(CONFLICT, _("Already %(done)s by %(who)s at %(when)s.")),
    "claimed_by_other": _e(CONFLICT, _("Claimed by %(who)s.")),
    "second_approval_by_other": _e(
        CONFLICT, _("A second approval must come from another manager than %(who)s.")
    ),
    "policy_changed_meanwhile": _e(
        CONFLICT,
        _(
            "%(who)s changed %(fields)s meanwhile (version %(version)s): look at the policy in "
            "force and save again."
        ),
    ),
    "approved_action_not_editable": _e(
        CONFLICT,
        _(
            "%(who)s has approved this action already: an edit would pay it on one approval. "
            "Give the second approval, or reject it with a reason."
        ),
    ),
    # Four eyes and limits by role (403: this person may not, someone else may).
    "second_approval_needs_manager": _e(FORBIDDEN, _("This needs a second approval by a manager.")),
    "over_operator_limit": _e(
        FORBIDDEN, _("Only a manager may approve a refund or cancellation above %(limit)s yen.")
    ),
    "idempotency_key_reused": _e(
        CONFLICT,
        _(
            "Idempotency key %(key)s was already used for another inquiry (%(inquiry)s); "
            "send a new key for a new inquiry."
        ),
    ),
    "message_key_reused": _e(
        CONFLICT,
        _(
            "Idempotency key %(key)s was already used for another message in this "
            "conversation; send a new key for a new message."
        ),
    ),
    # Conversations: who may write, and when (409: somebody else holds it).
    "not_human_owned": _e(
        CONFLICT, _("Take the conversation over before writing to the customer.")
    ),
    "owned_by_other": _e(CONFLICT, _("The conversation is taken over by %(who)s.")),
    "already_human_owned": _e(CONFLICT, _("Already taken over by %(who)s.")),
    "already_flagged": _e(CONFLICT, _("Already flagged for review.")),
    "not_ai_resolved": _e(REFUSED, _("Only a conversation the AI resolved can be flagged.")),
    "already_reviewed": _e(
        CONFLICT, _("This answer was already marked %(verdict)s by %(who)s at %(when)s.")
    ),
    "not_a_review": _e(REFUSED, _("Only an escalation for review takes a verdict on the answer.")),
    "not_a_draft": _e(REFUSED, _("Only a drafted reply can be sent from here.")),
    "unknown_intent": _e(REFUSED, _("Unknown intent %(intent)s.")),
    "policy_invalid": _e(REFUSED, _("%(field)s: %(problem)s")),
    "policy_reason_required": _e(REFUSED, _("Say why the policy changes.")),
    "policy_unchanged": _e(REFUSED, _("Nothing changed: the policy in force has these values.")),
    "invalid_autonomy_level": _e(REFUSED, _("Unknown autonomy level %(level)s (%(allowed)s).")),
    "invalid_verdict": _e(REFUSED, _("The verdict is correct or wrong.")),
    "wrong_reason_required": _e(
        REFUSED,
        _("A wrong answer needs a reason: %(allowed)s."),
        correct=_("A correct answer takes no reason for being wrong."),
    ),
    "correction_needs_wrong": _e(REFUSED, _("Only a wrong answer is corrected to the customer.")),
    # A customer's word on an AI answer (issue 25, part 3).
    "message_not_found": _e(NOT_FOUND, _("No such message in this conversation.")),
    "not_an_ai_reply": _e(REFUSED, _("Only an answer from our assistant can be rated.")),
    "feedback_already_given": _e(
        CONFLICT, _("You already told us whether this answer solved your problem (%(when)s).")
    ),
    "invalid_rating": _e(REFUSED, _("The rating is a whole number from 1 to 5.")),
    "comment_too_long": _e(REFUSED, _("The comment is longer than %(limit)s characters.")),
    # Help articles (issue 27): their text, their files, their versions.
    "article_key_taken": _e(CONFLICT, _("There is already a help article %(key)s.")),
    "article_not_a_draft": _e(
        CONFLICT, _("Version %(version)s is published already; published versions never change.")
    ),
    "article_category_unknown": _e(REFUSED, _("Unknown category %(category)s (%(allowed)s).")),
    "article_text_blank": _e(REFUSED, _("An article needs a title and a body.")),
    "article_title_too_long": _e(REFUSED, _("The title is longer than %(limit)s characters.")),
    "articles_file_invalid": _e(REFUSED, _("Not a help articles file: %(problems)s")),
    # A rule refused (422): an inquiry's text.
    "blank_text": _e(REFUSED, _("The message shows nothing: please write it in words.")),
    # A rule refused (422): escalations and decisions.
    "invalid_decision": _e(
        REFUSED,
        _("%(decision)s is not possible here; use one of %(allowed)s."),
        short=_("That decision is not possible for this escalation."),
    ),
    "reason_required": _e(
        REFUSED,
        _("A rejection needs a reason the customer can be told."),
        edit=_("The refund or cancellation needs a reason in words."),
    ),
    "reply_required": _e(REFUSED, _("Taking over needs the reply to send.")),
    "assignee_not_colleague": _e(
        REFUSED, _("%(who)s is not an active operator or manager: choose a colleague.")
    ),
    "reason_language_unconfirmed": _e(
        REFUSED,
        _(
            "The text is in %(text_language)s but the customer writes %(customer_language)s: "
            "confirm it is to be sent as written, or write it again."
        ),
    ),
    "preview_unavailable": _e(CONFLICT, _("The reply cannot be shown now: try again in a moment.")),
    "preview_outdated": _e(
        CONFLICT,
        _("The reply has changed since it was shown: look at the new text and send again."),
    ),
    "params_required": _e(REFUSED, _("An edit needs the parameters or the reply to change.")),
    "param_not_editable": _e(REFUSED, _("Cannot change %(params)s.")),
    "invalid_amount": _e(REFUSED, _("The amount must be a positive whole number of yen.")),
    "refund_exceeds_captured": _e(REFUSED, _("At most %(refundable)s can be refunded.")),
    "unknown_action": _e(REFUSED, _("no such action: %(kind)s")),
    "action_not_found": _e(REFUSED, _("This escalation has no action %(action_id)s.")),
    "approvals_missing": _e(
        REFUSED, _("This refund or cancellation lacks the approvals its amount requires.")
    ),
    "invalid_cursor": _e(REFUSED, _("The cursor is not one this API gave out.")),
    "invalid_request": _e(REFUSED, _("The request is not valid.")),
    # Orders, payments and shipments.
    "order_not_found": _e(REFUSED, _("no order %(number)s for customer %(customer)s")),
    "shipment_not_found": _e(REFUSED, _("no shipment %(ref)s for customer %(customer)s")),
    "invalid_status": _e(REFUSED, _("unknown order status %(status)s (%(allowed)s)")),
    "unknown_request": _e(REFUSED, _("unknown request %(request)s (%(allowed)s)")),
    "order_number_required": _e(REFUSED, _("Which order? No order or tracking number.")),
    "no_shipment": _e(REFUSED, _("%(order)s has not been handed to a carrier yet.")),
    "no_payment": _e(REFUSED, _("%(order)s has no payment on record.")),
    "order_not_cancellable": _e(REFUSED, _("Only pending or confirmed orders can be cancelled.")),
    "payment_not_captured": _e(
        REFUSED,
        _("Only captured payments can be refunded."),
        missing=_("order %(order)s has no payment"),
    ),
    "redelivery_not_allowed": _e(
        REFUSED, _("Redelivery is only for parcels taken back to the depot.")
    ),
    "slot_out_of_range": _e(REFUSED, _("The redelivery date is outside the days offered.")),
    "invalid_slot_window": _e(REFUSED, _("No such delivery time window.")),
    "date_change_not_allowed": _e(
        REFUSED, _("The delivery date can only change before the parcel is out for delivery.")
    ),
    "date_out_of_range": _e(REFUSED, _("The new delivery date is too far from the original.")),
    "date_unchanged": _e(REFUSED, _("The delivery is already scheduled for that date.")),
    # Returns, exchanges and item changes.
    "item_not_in_order": _e(REFUSED, _("%(item)s is not an item of %(order)s.")),
    "items_required": _e(REFUSED, _("Which items? None was named.")),
    "order_not_delivered": _e(REFUSED, _("Only delivered orders can be returned or exchanged.")),
    "return_window_passed": _e(REFUSED, _("The return window of this order has passed.")),
    "already_returned": _e(REFUSED, _("These items were already returned.")),
    "item_not_returnable": _e(REFUSED, _("%(item)s can only be returned if it is defective.")),
    "return_amount_exceeds_items": _e(
        REFUSED, _("A return refunds at most the returned items' value (%(value)s).")
    ),
    "exchange_window_passed": _e(REFUSED, _("The exchange window of this order has passed.")),
    "no_such_variant": _e(REFUSED, _("%(product)s has no variant %(wanted)s.")),
    "variant_out_of_stock": _e(REFUSED, _("%(product)s is out of stock.")),
    "already_exchanged": _e(REFUSED, _("This item was already exchanged once.")),
    "order_not_modifiable": _e(
        REFUSED, _("Items can only be changed on an order that is still pending.")
    ),
    "quantity_not_lowered": _e(
        REFUSED,
        _("An item can only be removed or its quantity lowered; additions are a new order."),
    ),
    "order_would_be_empty": _e(
        REFUSED, _("Removing every item is a cancellation, not an item change.")
    ),
    "invalid_address": _e(
        REFUSED,
        _("The address is not a complete Japanese address."),
        postal_code=_("%(postal_code)s is not a postal code (NNN-NNNN)."),
        prefecture=_("%(prefecture)s is not one of the 47 prefectures."),
        address_line=_("The address needs the city, street and number after the prefecture."),
    ),
    "address_change_not_allowed": _e(
        REFUSED,
        _("The address can only change before the parcel leaves (%(order)s is %(status)s)."),
    ),
    "receipt_not_paid": _e(
        REFUSED, _("A receipt is only issued for a paid order (%(order)s is not paid).")
    ),
    "receipt_fully_refunded": _e(
        REFUSED,
        _("%(order)s was refunded in full: there is no payment left to issue a receipt for."),
    ),
    "receipt_addressee_invalid": _e(
        REFUSED,
        _("The addressee must be a person's or a company's name only."),
        amount=_(
            "The addressee must be a name only: an amount, a currency or tax wording cannot "
            "be printed there."
        ),
        control=_(
            "The addressee contains invisible control or text-direction characters, which "
            "cannot be printed."
        ),
        too_long=_("The addressee is longer than %(limit)s characters."),
    ),
    "receipt_not_found": _e(NOT_FOUND, _("No such receipt.")),
    # Coupons.
    "coupon_invalid_value": _e(REFUSED, _("A coupon must be worth at least ¥1.")),
    "coupon_over_cap": _e(REFUSED, _("The coupon is worth more than the cap allows.")),
    "inquiry_required": _e(REFUSED, _("A coupon is issued for one inquiry, which must be named.")),
    "coupon_already_issued": _e(REFUSED, _("inquiry %(inquiry)s already has a coupon")),
    "coupon_limit_reached": _e(
        REFUSED, _("The customer already had as many coupons recently as the limit allows.")
    ),
    "coupon_expired_not_reissued": _e(
        REFUSED, _("an expired coupon is not reissued (FAQ: coupons)")
    ),
    "coupon_cause_compensated": _e(REFUSED, _("a coupon was already given for %(orders)s")),
    "coupon_no_cause": _e(
        REFUSED,
        _("the shop's records show no late, missed or failed delivery to apologise for"),
    ),
    # Operation ids.
    "operation_id_required": _e(REFUSED, _("an operation id is required")),
    "operation_id_conflict": _e(
        REFUSED,
        _(
            "operation %(operation_id)s already made a different %(kind)s (%(row)s); "
            "use a new operation id"
        ),
    ),
    # The console's preferences.
    "unknown_language": _e(REFUSED, _("No such language: %(language)s.")),
    "unknown_time_zone": _e(REFUSED, _("No such time zone: %(time_zone)s.")),
    # The canned replies managers keep in the console.
    "canned_reply_not_found": _e(NOT_FOUND, _("No such canned reply.")),
    "canned_reply_blank": _e(
        REFUSED,
        _("A canned reply needs a title and a text."),
        title=_("The title is blank."),
        body=_("The text is blank."),
    ),
    "canned_reply_too_long": _e(
        REFUSED,
        _("A canned reply's title or text is too long."),
        title=_("The title is longer than %(longest)s characters."),
        body=_("The text is longer than %(longest)s characters."),
    ),
    "canned_reply_title_taken": _e(
        REFUSED, _("Another active canned reply in this language is called “%(title)s”.")
    ),
}


def error_status(code: str) -> int:
    """The HTTP status a code answers with (422 for a code this catalogue does not know)."""
    entry = CATALOGUE.get(code)
    return entry.status if entry is not None else REFUSED


class DomainError(Exception):
    """A shop rule refused an action; ``code`` is stable, ``message`` is for people.

    Nothing has changed when this is raised: services validate before they write. The code
    must be in ``CATALOGUE`` (an unknown one is a programming error, refused at once).
    """

    def __init__(
        self, code: str, detail: str = "", /, *, variant: str = "", **params: object
    ) -> None:
        entry = CATALOGUE.get(code)
        if entry is None:
            raise KeyError(f"DomainError code {code!r} is not in netshop.errors.CATALOGUE")
        if variant and variant not in entry.variants:
            raise KeyError(f"DomainError code {code!r} has no variant {variant!r}")
        self.code = code
        self.status = entry.status
        self.variant = variant
        self.params = params
        self.detail = detail
        with translation.override("en"):
            self.message = detail or self._render()
        super().__init__(self.message)

    def localized(self) -> str:
        """The message in the active language (a ``detail`` only has its code's template)."""
        if CATALOGUE[self.code].short:
            return str(CATALOGUE[self.code].short)
        if self.detail and not self.params:
            template = CATALOGUE[self.code].message
            return str(template) if "%(" not in str(template) else self.detail
        return self._render()

    def _render(self) -> str:
        template = str(CATALOGUE[self.code].template(self.variant))
        return template % self.params if self.params else template

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class ExternalServiceError(Exception):
    """A carrier or gateway call failed (timeout, 5xx); the caller decides whether to retry."""

    def __init__(self, service: str, kind: str, message: str) -> None:
        super().__init__(f"{service} {kind}: {message}")
        self.service = service
        self.kind = kind
        self.message = message
