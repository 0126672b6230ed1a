"""The simulation pages' forms: a suite upload, a case's JSON, a run's configuration (and a
replay's choice of conversations), two runs to compare."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Final, cast

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agents.simulation.candidates import IN_FORCE, Candidate, CandidateError
from agents.simulation.models import FINISHED_RUN_STATUSES, SimulationRun
from agents.simulation.replay import ReplayFilter
from agents.simulation.services import DEFAULT_THRESHOLD
from agents.support.autonomy.levels import AUTONOMY_INTENTS
from operators import labels
from operators.simulations.candidates import (
    UPLOAD_LIMIT_BYTES,
    kept_candidate,
    kept_candidates,
    uploaded_candidate,
)
from operators.simulations.presenters import run_title
from operators.simulations.suite_files import SUITE_LIMIT_BYTES

# Attempts per case a page may ask for: each is a model call per turn, paid for with a real model.
MAX_K: Final = 5
IN_FORCE_CHOICE: Final = ""
KEPT: Final = "kept:"
UPLOADED: Final = "upload"
ESCALATED_CHOICES: Final = {"": None, "yes": True, "no": False}


def uploaded_text(upload: UploadedFile, *, limit: int) -> str:
    """An uploaded file's text (UTF-8, a byte-order mark allowed), refused over ``limit``."""
    if upload.size is not None and upload.size > limit:
        raise forms.ValidationError(_("The file is larger than %(kb)s KB.") % {"kb": limit // 1024})
    try:
        content: bytes = upload.read()
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise forms.ValidationError(_("The file is not UTF-8 text.")) from error


class SuiteUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Suite file (JSON Lines)"))
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Empty: the file's name without its extension."),
    )
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the suite of that name if there is one"), required=False
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        if upload is not None:
            try:
                cleaned["text"] = uploaded_text(upload, limit=SUITE_LIMIT_BYTES)
            except forms.ValidationError as error:
                self.add_error("file", error)
            cleaned["name"] = (cleaned.get("name") or "").strip() or Path(upload.name or "").stem
        return cleaned


class CaseForm(forms.Form):
    document = forms.CharField(
        label=gettext_lazy("The case (JSON)"),
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "false"}),
        strip=False,
    )


class RunForm(forms.Form):
    """What to run against and how often; ``clean`` resolves the ``configuration``."""

    configuration = forms.ChoiceField(label=gettext_lazy("Run against"), required=False)
    candidate_file = forms.FileField(
        label=gettext_lazy("Candidate file (JSON or TOML)"),
        required=False,
        help_text=gettext_lazy(
            "An uploaded candidate may set the provider, the models, the policy settings and "
            "a model server the shop already uses."
        ),
    )
    k = forms.IntegerField(
        label=gettext_lazy("Attempts per case (k)"), min_value=1, max_value=MAX_K, initial=1
    )
    threshold = forms.FloatField(
        label=gettext_lazy("Threshold (0 to 1)"),
        min_value=0,
        max_value=1,
        initial=DEFAULT_THRESHOLD,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kept = [
            (f"{KEPT}{c.file}", f"{c.candidate.name} ({c.file})")
            for c in kept_candidates()
            if c.candidate is not None
        ]
        cast(forms.ChoiceField, self.fields["configuration"]).choices = [
            (IN_FORCE_CHOICE, _("The configuration in force")),
            *kept,
            (UPLOADED, _("An uploaded candidate file")),
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            cleaned["candidate"] = self._candidate(cleaned)
        except CandidateError as error:
            self.add_error("candidate_file", str(error))
        except forms.ValidationError as error:
            self.add_error("candidate_file", error)
        return cleaned

    def _candidate(self, cleaned: dict[str, Any]) -> Candidate:
        chosen = cleaned.get("configuration") or IN_FORCE_CHOICE
        if chosen.startswith(KEPT):
            return kept_candidate(chosen.removeprefix(KEPT))
        if chosen == UPLOADED:
            upload = cleaned.get("candidate_file")
            if upload is None:
                raise CandidateError(_("Choose the candidate file to upload."))
            text = uploaded_text(upload, limit=UPLOAD_LIMIT_BYTES)
            return uploaded_candidate(text, filename=upload.name or "candidate.json")
        return IN_FORCE


class ReplayForm(RunForm):
    """A run's configuration, and which past conversations to replay."""

    since = forms.DateField(label=gettext_lazy("From"), required=False)
    until = forms.DateField(label=gettext_lazy("To (inclusive)"), required=False)
    intent = forms.ChoiceField(label=gettext_lazy("Intent"), required=False)
    escalated = forms.ChoiceField(
        label=gettext_lazy("Decided by a person"),
        required=False,
        choices=[
            ("", gettext_lazy("either")),
            ("yes", gettext_lazy("yes: an action the operators decided")),
            ("no", gettext_lazy("no")),
        ],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        named = [(i, labels.label(labels.SKILL_LABELS, i)) for i in AUTONOMY_INTENTS]
        choices = [("", _("any")), *sorted(named, key=lambda choice: choice[1])]
        cast(forms.ChoiceField, self.fields["intent"]).choices = choices
        self.fields["threshold"].initial = 0.8

    def replay_filter(self) -> ReplayFilter:
        """The chosen conversations: days in the manager's time zone, ``To`` included."""
        data = self.cleaned_data
        until = data.get("until")
        return ReplayFilter(
            since=_day_start(data.get("since")),
            until=_day_start(until + dt.timedelta(days=1)) if until else None,
            intent=data.get("intent") or "",
            escalated=ESCALATED_CHOICES[data.get("escalated") or ""],
        )


def _day_start(day: dt.date | None) -> dt.datetime | None:
    if day is None:
        return None
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


class RunChoiceField(forms.ModelChoiceField):
    """A finished run, offered by its title."""

    def __init__(self, **kwargs: Any) -> None:
        finished = SimulationRun.objects.filter(status__in=FINISHED_RUN_STATUSES)
        super().__init__(queryset=finished.select_related("suite").order_by("-id"), **kwargs)

    def label_from_instance(self, obj: Any) -> str:
        return run_title(obj)


class CompareForm(forms.Form):
    before = RunChoiceField(label=gettext_lazy("Left"))
    after = RunChoiceField(label=gettext_lazy("Right"))
