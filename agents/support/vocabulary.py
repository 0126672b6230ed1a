"""The agents' words, defined once: the skills of the agent cards and the operators' decisions.

Every module that names a skill (``process_refund``, ``cancel_order``, ...) or a decision
(``approve``, ``edit``, ``reject``, ``take_over``) imports it from here, so a renamed or added
term is one change, and a typo is an AttributeError instead of a silently unmatched string.
``tests/agents/support/test_vocabulary.py`` checks the skills against ``cards.json`` and scans the
product code for the bare strings.

The escalation kinds and the inquiry's status are the models' ``EscalationKind`` and
``InquiryStatus`` (``agents/models.py``): they are stored in columns.
"""

from __future__ import annotations

from typing import Final

from django.db import models
from django.utils.translation import gettext_lazy as _


class Skill(models.TextChoices):
    """The skill ids of the agent cards (``cards.json``); a plan step's intent is one.

    Choices rather than a ``StrEnum``: LangGraph's checkpointer stores a ``StrEnum`` member
    as a typed extension (and warns when loading it), a ``TextChoices`` member as the plain
    string, so checkpoints keep the shape they had (``test_vocabulary`` checks it).
    """

    # supervisor
    CLASSIFY_AND_ROUTE = "classify_and_route"
    AGGREGATE_RESPONSES = "aggregate_responses"
    # order-agent
    SEARCH_ORDERS = "search_orders"
    GET_ORDER_DETAILS = "get_order_details"
    CANCEL_ORDER = "cancel_order"
    RETURN_ITEMS = "return_items"
    EXCHANGE_ITEMS = "exchange_items"
    MODIFY_ORDER_ITEMS = "modify_order_items"
    # shipping-agent
    TRACK_SHIPMENT = "track_shipment"
    ARRANGE_REDELIVERY = "arrange_redelivery"
    CHANGE_DELIVERY_DATE = "change_delivery_date"
    CHANGE_SHIPPING_ADDRESS = "change_shipping_address"
    # payment-agent
    PROCESS_REFUND = "process_refund"
    CHECK_PAYMENT_STATUS = "check_payment_status"
    APPLY_COUPON = "apply_coupon"
    REFUND_STATUS = "refund_status"
    ISSUE_RECEIPT = "issue_receipt"
    # faq-agent
    SEARCH_FAQ = "search_faq"
    ANSWER_GENERAL_QUESTION = "answer_general_question"
    CONTACT_HUMAN = "contact_human"  # the customer asks for a person


# The side effects a person approves before they run (SPEC 4.2): a pending action's kind.
GATED_SKILLS: frozenset[Skill] = frozenset(
    {
        Skill.PROCESS_REFUND,
        Skill.CANCEL_ORDER,
        Skill.RETURN_ITEMS,
        Skill.EXCHANGE_ITEMS,
        Skill.MODIFY_ORDER_ITEMS,
    }
)


# The side effects done on the customer's word, without a person first.
DIRECT_ACTION_SKILLS: frozenset[Skill] = frozenset(
    {
        Skill.APPLY_COUPON,
        Skill.ISSUE_RECEIPT,
        Skill.ARRANGE_REDELIVERY,
        Skill.CHANGE_DELIVERY_DATE,
        Skill.CHANGE_SHIPPING_ADDRESS,
    }
)

# Every skill that changes something: approved by a person, or done on the customer's word.
ACTION_SKILLS: frozenset[Skill] = GATED_SKILLS | DIRECT_ACTION_SKILLS


# The gated actions that pay money back or drop a payment: above a limit they need four eyes
# (the policy's four-eyes amount, ``netshop.policy``) and an operator may not approve them
# above their limit.
MONEY_SKILLS: frozenset[Skill] = frozenset(
    {Skill.PROCESS_REFUND, Skill.CANCEL_ORDER, Skill.RETURN_ITEMS}
)


class OperatorDecision(models.TextChoices):
    """What an operator decides on an escalation; the label is the decision as a record
    ("approved by alice"). A failed action's retry is ``APPROVE``, giving it up ``REJECT``."""

    APPROVE = "approve", _("approved")
    EDIT = "edit", _("approved with changes")
    REJECT = "reject", _("rejected")
    TAKE_OVER = "take_over", _("taken over")
    REVIEWED = "reviewed", _("reviewed")  # a flagged conversation looked at, nothing to change
    SEND_REPLY = "send_reply", _("reply sent")  # a drafted reply sent, as drafted or edited


# What ``escalation_decide`` takes; a draft is sent by its own service (``drafts.draft_send``).
DECIDE_DECISIONS: tuple[OperatorDecision, ...] = tuple(
    d for d in OperatorDecision if d != OperatorDecision.SEND_REPLY
)


# The reasons a conversation the AI resolved is reviewed: a lead flagged it (the AI holds
# until a person looks), or it was drawn into the review sample (``escalations.review_sample``),
# a look back at an answer already sent, so the AI goes on answering the customer meanwhile.
FLAGGED_FOR_REVIEW: Final = "flagged_for_review"
SAMPLED_FOR_REVIEW: Final = "sampled_for_review"
# The customer said an AI answer did not solve their problem (the "not solved" button, or a
# reply saying it missed the point): the conversation joins the review queue at once, and the
# AI holds until a person answers, decides or hands back (``escalations.customer_feedback``).
NOT_SOLVED: Final = "customer_not_solved"
# An answer of an intent set to "send and review": sent, and reviewed afterwards like a sample.
SENT_FOR_REVIEW: Final = "sent_for_review"
# The reviews that look back at an answer already sent: the AI goes on answering meanwhile.
LOOK_BACK_REVIEWS: frozenset[str] = frozenset({SAMPLED_FOR_REVIEW, SENT_FOR_REVIEW})


class DraftReason(models.TextChoices):
    """Why the AI's reply waits for a person to send it (``agents.support.autonomy``): the
    intent's autonomy says so, or the turn is one no setting lets out on its own. The value is
    the draft's escalation reason."""

    AUTONOMY = "autonomy_draft", _("the request's autonomy is set to draft")
    # the customer said an answer missed while this turn ran: a person holds the conversation
    UNDER_REVIEW = "under_review", _("a person is reviewing the conversation")
    NOT_UNDERSTOOD = "not_understood", _("the AI did not understand the message")
    LOW_CONFIDENCE = "low_confidence", _("the AI was unsure of its reading")
    SELF_CHECK = "self_check_failed", _("the reply failed its self-check")
    COMPLAINT = "complaint", _("the message is a complaint")
    INSTRUCTIONS = "instructions_to_system", _("message tried to instruct the system")
