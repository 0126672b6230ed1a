"""Stored simulations: suites, runs (of a suite or a replay) and each case's result.

Field names are the console's contract: pages read these rows through the selectors in
``agents.simulation.results``; writes go through ``agents.simulation.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import pgettext_lazy


class SimulationSuite(models.Model):
    """A suite as a shop keeps it: its file's text (JSON Lines, ``agents.simulation.suites``)
    under a name. Stored whole so a run can be repeated and a manager can edit a case and run
    it again; ``digest`` tells two versions of the same suite apart."""

    id = models.BigAutoField(primary_key=True)
    name = models.CharField(max_length=120, unique=True)
    source = models.CharField(
        max_length=300, blank=True, help_text="Where it came from: a file path, or 'upload'."
    )
    content = models.TextField(help_text="The suite file's text, one case a line.")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the content.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class RunKind(models.TextChoices):
    """What a run ran: a suite's cases, or past conversations replayed."""

    SUITE = "suite", pgettext_lazy("simulation", "suite")
    REPLAY = "replay", pgettext_lazy("simulation", "replay")


class RunStatus(models.TextChoices):
    """Where a run stands. ``passed``/``failed`` is the gate's verdict (score against the
    threshold); ``error`` means the sandbox itself could not run (no verdict)."""

    QUEUED = "queued", pgettext_lazy("simulation", "queued")
    RUNNING = "running", pgettext_lazy("simulation", "running")
    PASSED = "passed", pgettext_lazy("simulation", "passed")
    FAILED = "failed", pgettext_lazy("simulation", "failed")
    ERROR = "error", pgettext_lazy("simulation", "error")


FINISHED_RUN_STATUSES = (RunStatus.PASSED, RunStatus.FAILED, RunStatus.ERROR)


class SimulationRun(models.Model):
    """One run in the sandbox, with everything needed to read it later.

    ``versions`` records what it ran against (``agents.simulation.versions.Versions``): the
    model provider and names, base URL, prompt digest, router digest, policy version and
    article version. ``score`` is pass^k over the cases for a suite (the share of cases whose
    every attempt passed) and the agreement with operators' decisions for a replay;
    ``pass_at`` holds pass^1..pass^k; ``summary`` the figures per category (a suite's case
    category, a replay's intent)."""

    id = models.BigAutoField(primary_key=True)
    kind = models.CharField(max_length=10, choices=RunKind.choices, default=RunKind.SUITE)
    suite = models.ForeignKey(
        SimulationSuite, null=True, blank=True, on_delete=models.PROTECT, related_name="runs"
    )
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    candidate_name = models.CharField(
        max_length=120, blank=True, help_text="Empty: the configuration in force."
    )
    candidate = models.JSONField(default=dict, blank=True, help_text="The candidate as applied.")
    versions = models.JSONField(default=dict, blank=True)
    k = models.PositiveSmallIntegerField(default=1, help_text="Attempts per case.")
    threshold = models.FloatField(default=0.9)
    selection = models.JSONField(
        default=dict, blank=True, help_text="--only case ids, or a replay's filters."
    )
    score = models.FloatField(null=True, blank=True)
    pass_at = models.JSONField(default=dict, blank=True, help_text='{"1": 0.95, "2": 0.9}')
    summary = models.JSONField(default=dict, blank=True, help_text="Figures per category.")
    cases_total = models.PositiveIntegerField(default=0)
    cases_passed = models.PositiveIntegerField(default=0)
    regressions = models.PositiveIntegerField(
        default=0, help_text="Cases the previous run of the same suite passed and this one failed."
    )
    error = models.TextField(blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True, help_text="Wall time of the sandbox run.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["suite", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} run {self.pk}"


class SimulationResult(models.Model):
    """One case of a run (a suite's case, or a replayed conversation).

    ``passed`` is pass^k for this case: every one of its ``attempts`` passed. ``reasons`` are
    the first failing attempt's, in English; ``reason_codes`` the same reasons as codes and
    parameters, for the console to word in the reader's language. ``previous_passed`` is the
    same case's verdict in the previous run of the same suite (None: not in it), so a
    regression is ``previous_passed and not passed``. For a replay, ``inquiry_id`` is the production
    conversation, ``operator_decision`` what the operators did, ``proposed`` what the AI
    proposes now, ``agreement`` whether the two agree and ``reply_diff`` a unified diff of the
    reply then and now."""

    id = models.BigAutoField(primary_key=True)
    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="results")
    case_id = models.CharField(max_length=120)
    category = models.CharField(max_length=60, blank=True)
    language = models.CharField(max_length=2, blank=True)
    intent = models.CharField(max_length=40, blank=True)
    passed = models.BooleanField()
    attempts_passed = models.PositiveSmallIntegerField(default=0)
    attempts = models.JSONField(
        default=list, help_text="Per attempt: pass, reasons, and each turn's outcome."
    )
    reasons = models.JSONField(default=list, blank=True)
    reason_codes = models.JSONField(
        default=list,
        blank=True,
        help_text='The same reasons as {"code", "params"} (agents.simulation.reasons); '
        "empty on results stored before codes were.",
    )
    reply = models.TextField(blank=True, help_text="The last turn's reply (first attempt).")
    previous_passed = models.BooleanField(null=True, blank=True)
    inquiry_id = models.UUIDField(null=True, blank=True)
    operator_decision = models.JSONField(null=True, blank=True)
    proposed = models.JSONField(null=True, blank=True)
    agreement = models.BooleanField(null=True, blank=True)
    reply_diff = models.TextField(blank=True)
    seconds = models.FloatField(default=0.0)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["run", "case_id"], name="simulation_result_once")
        ]

    def __str__(self) -> str:
        return f"{self.case_id} ({'pass' if self.passed else 'fail'})"

    @property
    def regressed(self) -> bool:
        """Passed in the previous run of the suite, fails now."""
        return bool(self.previous_passed) and not self.passed
