"""The policy page: the shop's limits in force, the form that changes them, their history.

The rules (versions, validation, the lock, the audit entry) are ``netshop.policy``'s; this
module only shapes them for the page: the form a manager fills, and each version beside what
it changed.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from netshop.models import PolicyVersion
from netshop.policy import (
    LIMIT_NAMES,
    LIMITS,
    Policy,
    policy_from_environment,
    policy_values,
)

HISTORY_SIZE = 50  # the newest versions shown; the audit log keeps every change


class PolicyForm(forms.Form):
    """Every limit, the version the manager was shown (``based_on``) and a required reason."""

    based_on = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    four_eyes_yen = forms.IntegerField(min_value=1)
    operator_limit_yen = forms.IntegerField(min_value=1)
    coupon_cap_yen = forms.IntegerField(min_value=1)
    coupon_limit_per_customer = forms.IntegerField(min_value=0)
    coupon_window_days = forms.IntegerField(min_value=1)
    return_window_days = forms.IntegerField(min_value=0)
    exchange_window_days = forms.IntegerField(min_value=0)
    approval_deadline_minutes = forms.IntegerField(min_value=1)
    review_sample = forms.FloatField(min_value=0, max_value=1)
    reason = forms.CharField(
        label=_("Why"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for limit in LIMITS:  # the words are the policy's own (lazy, translated when shown)
            self.fields[limit.name].label = str(limit.label)
            self.fields[limit.name].help_text = str(limit.unit)

    @classmethod
    def for_policy(cls, policy: Policy) -> PolicyForm:
        return cls(initial={"based_on": policy.version, **policy_values(policy)})

    def limits(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in LIMIT_NAMES}


def policy_history() -> list[dict[str, Any]]:
    """The newest versions first, each with who, when, why and what it changed (old -> new)
    against the version before it (version 1 against the environment's values). One query."""
    versions = list(
        PolicyVersion.objects.select_related("created_by").order_by("-number")[: HISTORY_SIZE + 1]
    )
    rows: list[dict[str, Any]] = []
    for version, before in zip(versions, [*versions[1:], None], strict=False):
        if len(rows) == HISTORY_SIZE:
            break
        previous = _values(before) if before else policy_values(policy_from_environment())
        rows.append(
            {
                "number": version.number,
                "by": version.created_by.username if version.created_by else "",
                "at": version.created_at,
                "reason": version.reason,
                "changes": [
                    {"label": limit.label, "before": previous[limit.name], "after": after}
                    for limit in LIMITS
                    if (after := getattr(version, limit.name)) != previous[limit.name]
                ],
            }
        )
    return rows


def policy_rows(policy: Policy, form: PolicyForm) -> list[dict[str, Any]]:
    """The limits in force, one row each, with the environment variable they started from
    and the form's field that changes it."""
    return [
        {
            "name": limit.name,
            "label": limit.label,
            "value": getattr(policy, limit.name),
            "unit": limit.unit,
            "setting": limit.setting,
            "field": form[limit.name],
        }
        for limit in LIMITS
    ]


def _values(version: PolicyVersion) -> dict[str, Any]:
    return {name: getattr(version, name) for name in LIMIT_NAMES}
