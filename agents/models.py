"""Conversations and their runs: what customers wrote, who answered, where the agents are.

An ``Inquiry`` is a conversation (the name the API has always used): its id is the graph's
thread id, and each new customer message starts the next run (a *turn*) on that thread.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from netshop.models import ApiToken, Customer


class InquiryStatus(models.TextChoices):
    """Where an inquiry is; also the run's status in the graph state (``InquiryState``)."""

    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    AWAITING_CUSTOMER = "awaiting_customer", _("awaiting the customer")
    AWAITING_APPROVAL = "awaiting_approval", _("awaiting approval")
    RESOLVED = "resolved", _("resolved")
    ESCALATED = "escalated", _("escalated")
    HANDLED_BY_HUMAN = "handled_by_human", _("handled by a person")
    FAILED = "failed", _("failed")


class Inquiry(models.Model):
    """One conversation with a customer; its id is the graph's thread id.

    ``text`` is the message that opened it and ``reply`` the latest answer the customer got
    (what the single-message API always showed); the whole thread is ``messages``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="inquiries")
    text = models.TextField()
    channel = models.CharField(max_length=20, default="web")
    # NULL means "no key": the unique constraint only binds inquiries that carry one.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    status = models.CharField(
        max_length=20, choices=InquiryStatus.choices, default=InquiryStatus.QUEUED
    )
    language = models.CharField(max_length=2, blank=True)
    intent = models.CharField(max_length=40, blank=True)
    agents = models.JSONField(default=list, blank=True)
    reply = models.TextField(blank=True)
    escalation = models.JSONField(null=True, blank=True)
    handoffs = models.JSONField(
        default=list, blank=True, help_text="Content-free hand-off receipts with their verdicts."
    )
    human_owner = models.ForeignKey(
        "auth.User",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The person who took the conversation over; while set, the AI sends nothing.",
    )
    awaiting_until = models.DateTimeField(
        null=True, blank=True, help_text="When a question the AI asked the customer lapses."
    )
    turns = models.PositiveIntegerField(
        default=0, help_text="Runs started on the thread, one per batch of customer messages."
    )
    storefront_token = models.ForeignKey(
        ApiToken,
        null=True,
        blank=True,
        # A token that submitted conversations is revoked, never deleted: it is what a
        # storefront may read and whose idempotency keys they are (``inquiry_create``).
        on_delete=models.PROTECT,
        related_name="+",
        help_text=(
            "The storefront token that submitted it: the one storefront that may read it and "
            "write in it, and whose webhooks hear of it."
        ),
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "conversation"
        verbose_name_plural = "conversations"
        # An idempotency key names one request of one caller: a storefront's keys are its own
        # (two storefronts may send the same key for the same customer), and the keys of
        # conversations started without a token (the help page, the console) share one space
        # per customer. Two partial constraints, because NULL tokens would never collide.
        constraints = [
            models.UniqueConstraint(
                fields=["storefront_token", "customer", "idempotency_key"],
                condition=models.Q(storefront_token__isnull=False),
                name="inquiry_idempotency_per_token",
            ),
            models.UniqueConstraint(
                fields=["customer", "idempotency_key"],
                condition=models.Q(storefront_token__isnull=True),
                name="inquiry_idempotency_per_customer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.customer.code}: {self.text[:40]}"


class MessageAuthor(models.TextChoices):
    """Who wrote a message; a note is staff-only and never reaches the customer."""

    CUSTOMER = "customer", _("customer")
    AI = "ai", _("AI")
    OPERATOR = "operator", _("operator")
    NOTE = "note", _("internal note")


# What the customer sees of a thread: everything but internal notes.
CUSTOMER_VISIBLE_AUTHORS = (MessageAuthor.CUSTOMER, MessageAuthor.AI, MessageAuthor.OPERATOR)


class Message(models.Model):
    """One message of a conversation, with its author, channel and language.

    ``turn`` ties a message to a run: for a customer's or an operator's message, the run that
    took it into the thread (NULL while none has: it is pending); for the AI's, the run that
    wrote it. A customer message is taken by exactly one run, so it is answered exactly once.
    ``thread_id`` is the message's id in the LangGraph thread (the AI's replies are keyed by
    it, so recording a run twice stores each reply once).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    inquiry = models.ForeignKey(Inquiry, on_delete=models.CASCADE, related_name="messages")
    author_kind = models.CharField(max_length=10, choices=MessageAuthor.choices)
    author = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField()
    channel = models.CharField(max_length=20, default="web")
    language = models.CharField(max_length=2, blank=True)
    turn = models.PositiveIntegerField(null=True, blank=True)
    # NULL means "no key", as on ``Inquiry``.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    thread_id = models.CharField(max_length=120, null=True, blank=True)  # noqa: DJ001
    # An AI message's grounds (``agents.support.grounds.GroundsDict``): how the turn read the
    # message, the records it read, the check of the reply; NULL for anyone else's.
    grounds = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["inquiry", "created_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["inquiry", "idempotency_key"], name="message_idempotency_per_conversation"
            ),
            models.UniqueConstraint(
                fields=["inquiry", "thread_id"], name="message_once_per_thread_id"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author_kind} in {self.inquiry_id}: {self.text[:40]}"

    @property
    def is_answer(self) -> bool:
        """An AI turn's answer (it has grounds): what a customer may say solved it or not. The
        shop's own notices ("it takes a little longer") are the AI's messages too, but no
        answer to anything."""
        return self.author_kind == MessageAuthor.AI and self.grounds is not None

    @property
    def is_pending(self) -> bool:
        """A customer message no run has taken yet."""
        return self.author_kind == MessageAuthor.CUSTOMER and self.turn is None


class EscalationKind(models.TextChoices):
    """Why a run waits for a person; the labels are what the console shows."""

    APPROVAL = "approval", _("approval needed")
    FAILURE = "failure", _("failure")
    FOLLOW_UP = "follow_up", _("follow-up")
    CUSTOMER_REQUEST = "customer_request", _("customer asked for a person")
    REVIEW = "review", _("review of an AI answer")
    DRAFT = "draft", _("reply to send")  # the AI's reply waits for a person to send it


class EscalationStatus(models.TextChoices):
    """An escalation stays open until every one of its actions has a decision."""

    OPEN = "open"
    DECIDED = "decided"


# Who an open escalation waits on when nobody holds it: operators first, managers once it
# is overdue (``agents.support.escalations.deadlines``); a holder's username while one holds it.
OPERATORS_QUEUE = "queue:operators"
MANAGERS_QUEUE = "queue:managers"


class ActionState(models.TextChoices):
    """Where one pending action of an escalation is
    (``agents.support.escalations.action_states``)."""

    PENDING = "pending", _("awaiting a decision")
    AWAITING_SECOND_APPROVAL = "awaiting_second_approval", _("needs a second approval by a manager")
    DECIDED = "decided", _("decided")


class Escalation(models.Model):
    """A wait for a person (seed 002): owner, reason, deadline, resume token, and the package.

    ``wait_key`` names the wait it records (the graph's interrupt id, or the run's final
    escalation), so recording the same wait twice finds the first row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    inquiry = models.ForeignKey(Inquiry, on_delete=models.CASCADE, related_name="escalations")
    turn = models.PositiveIntegerField(default=1, help_text="The run of the conversation it stops.")
    wait_key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=20, choices=EscalationKind.choices)
    reason = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    actions = models.JSONField(default=list, blank=True)
    package = models.JSONField(default=dict, help_text="The hand-off package (SPEC 5.2).")
    amount_at_risk = models.PositiveIntegerField(default=0)
    owner = models.CharField(max_length=150, default=OPERATORS_QUEUE)
    deadline = models.DateTimeField()
    resume_token_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    status = models.CharField(
        max_length=10, choices=EscalationStatus.choices, default=EscalationStatus.OPEN
    )
    claimed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    claim_active_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The holder's last activity (claim, preview, decision attempt); a claim "
        "idle past NETSHOP_CLAIM_TIMEOUT_MINUTES is released.",
    )
    overdue_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the wait passed its deadline and moved to the managers' queue (once).",
    )
    awaits_second_approval = models.BooleanField(
        default=False,
        help_text="A first approval is recorded and a manager's second is awaited: the wait "
        "sits in the managers' queue, released by its first approver.",
    )
    decision = models.JSONField(null=True, blank=True)
    decided_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    action_decisions = models.JSONField(
        default=dict,
        blank=True,
        help_text="Each action's decision by action id, with its approvals (first, second).",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deadline", "created_at"]
        indexes = [models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.inquiry_id}"

    @property
    def is_overdue(self) -> bool:
        return self.status == EscalationStatus.OPEN and self.deadline < timezone.now()


class ConsoleEvent(models.Model):
    """Every live event, numbered: a console that lost its socket asks for what it missed."""

    id = models.BigAutoField(primary_key=True)
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"#{self.id} {self.type}"


class StaffTextKind(models.TextChoices):
    """What a piece of staff text is: the reason given with a decision, or with a flag."""

    DECISION_REASON = "decision_reason", _("decision reason")
    FLAG_REASON = "flag_reason", _("flag reason")
    REVIEW_NOTE = "review_note", _("review note")


class StaffText(models.Model):
    """Words staff wrote about a conversation, kept for managers (the audit pages, the CSV).

    The audit chain stays content-free: its entry carries only the text's sha256
    (``reason_digest``), and this row carries the text under the same digest. A row edited
    afterwards no longer matches the digest its entry was chained with.
    """

    id = models.BigAutoField(primary_key=True)
    inquiry = models.ForeignKey(Inquiry, on_delete=models.CASCADE, related_name="staff_texts")
    escalation = models.ForeignKey(
        Escalation, null=True, blank=True, on_delete=models.CASCADE, related_name="staff_texts"
    )
    action_id = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=20, choices=StaffTextKind.choices)
    author = models.CharField(max_length=150)
    text = models.TextField()
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["inquiry", "digest"])]

    def __str__(self) -> str:
        return f"{self.kind} by {self.author} in {self.inquiry_id}"


class ReviewSampleCount(models.Model):
    """How many answers of one intent the AI has resolved on its own since the review sample
    began (``agents.support.escalations.review_sample``): the n of "the n-th is drawn".

    One row per intent, counted up under its row lock, so two workers never draw the same n
    and the count is read in constant time however many conversations the shop keeps.
    """

    intent = models.CharField(max_length=40, primary_key=True)
    resolved = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.intent or '(no intent)'}: {self.resolved}"


class AnswerVerdict(models.TextChoices):
    """A reviewer's verdict on an AI answer: right, or wrong (with a ``WrongAnswerReason``)."""

    CORRECT = "correct", _("correct")
    WRONG = "wrong", _("wrong")


class WrongAnswerReason(models.TextChoices):
    """Why an AI answer was wrong: the categories the dashboard counts (issue 25, part 4)."""

    WRONG_FACTS = "wrong_facts", _("wrong facts")
    WRONG_ACTION = "wrong_action", _("wrong action")
    DID_NOT_ANSWER = "did_not_answer", _("did not answer the question")
    WRONG_ORDER = "wrong_order", _("wrong order")
    TONE = "tone", _("tone")


class AnswerReview(models.Model):
    """A reviewer's verdict on the AI answer a review escalation holds, once per escalation.

    The rows the dashboard's measured accuracy counts (``operators.audit.quality``); ``intent``
    is the answer's intent as it was reviewed, so a later reading of the conversation does not
    move the figures. ``note`` is the reviewer's own words (kept for managers, like
    ``StaffText``; the audit chain holds only its digest).
    """

    id = models.BigAutoField(primary_key=True)
    escalation = models.OneToOneField(
        Escalation, on_delete=models.CASCADE, related_name="answer_review"
    )
    inquiry = models.ForeignKey(Inquiry, on_delete=models.CASCADE, related_name="answer_reviews")
    turn = models.PositiveIntegerField(default=1, help_text="The run whose answer was reviewed.")
    intent = models.CharField(max_length=40, blank=True)
    verdict = models.CharField(max_length=10, choices=AnswerVerdict.choices)
    reason = models.CharField(
        max_length=20,
        choices=WrongAnswerReason.choices,
        blank=True,
        help_text="Why it was wrong; empty for a correct answer.",
    )
    note = models.TextField(blank=True)
    reviewer = models.ForeignKey("auth.User", on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["intent", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(verdict="correct", reason="")
                    | (models.Q(verdict="wrong") & ~models.Q(reason=""))
                ),
                name="answer_review_reason_iff_wrong",
            )
        ]

    def __str__(self) -> str:
        return f"{self.verdict} for {self.inquiry_id}"


class AutonomyLevel(models.TextChoices):
    """How much the AI may do on its own for one kind of request (issue 25, part 2)."""

    SEND = "send", _("send")
    SEND_AND_REVIEW = "send_and_review", _("send and review")
    DRAFT = "draft", _("draft")


class IntentAutonomy(models.Model):
    """A manager's setting of one intent's autonomy; an intent without a row has the default
    (``agents.support.autonomy.levels.DEFAULT_LEVELS``). Read on every turn, so a change
    applies to the next message without a restart."""

    intent = models.CharField(max_length=40, primary_key=True)
    level = models.CharField(max_length=20, choices=AutonomyLevel.choices)
    changed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.intent}: {self.level}"


class FeedbackSource(models.TextChoices):
    """How a customer's word on an AI answer came: the buttons under the reply (on ``/help/``
    or through the storefront API), or a reply of theirs saying it missed the point."""

    BUTTONS = "buttons", _("solved / not solved")
    REPLY = "reply", _("a reply saying it missed the point")


# The longest comment a customer may leave with their feedback, and the ratings they may give.
FEEDBACK_COMMENT_MAX = 1000
FEEDBACK_RATINGS = range(1, 6)


class AnswerFeedback(models.Model):
    """A customer's word on one AI answer: did it solve their problem (issue 25, part 3).

    One per AI message (the message belongs to one conversation, so to one customer); the
    rows the dashboard's "solved / not solved" shares count. ``intent`` is the answer's main
    intent as it was read, so the figures do not move with a later reading of the conversation.
    """

    id = models.BigAutoField(primary_key=True)
    message = models.OneToOneField(Message, on_delete=models.CASCADE, related_name="feedback")
    inquiry = models.ForeignKey(Inquiry, on_delete=models.CASCADE, related_name="answer_feedback")
    turn = models.PositiveIntegerField(null=True, blank=True, help_text="The run that wrote it.")
    intent = models.CharField(max_length=40, blank=True)
    solved = models.BooleanField()
    rating = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1-5, optional.")
    comment = models.TextField(blank=True)
    source = models.CharField(
        max_length=10, choices=FeedbackSource.choices, default=FeedbackSource.BUTTONS
    )
    channel = models.CharField(max_length=20, default="web")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["intent", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__isnull=True)
                | models.Q(rating__gte=FEEDBACK_RATINGS.start, rating__lt=FEEDBACK_RATINGS.stop),
                name="answer_feedback_rating_1_to_5",
            )
        ]

    def __str__(self) -> str:
        return f"{'solved' if self.solved else 'not solved'} for {self.message_id}"
