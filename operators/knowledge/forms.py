"""Parsing what managers send: canned replies and help articles.

The forms only parse (and give the browser its limits); the rules (blank, too long, a title
taken) are the services' to enforce, so a refusal reads the same wherever it comes from.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from operators.knowledge.canned_replies import BODY_MAX, TITLE_MAX, CannedReplyFields
from operators.labels import LANGUAGE_LABELS


class CannedReplyForm(forms.Form):
    title = forms.CharField(
        label=_("Title"),
        required=False,
        strip=False,
        widget=forms.TextInput(attrs={"maxlength": TITLE_MAX}),
    )
    language = forms.ChoiceField(label=_("Language"), choices=list(LANGUAGE_LABELS.items()))
    body = forms.CharField(
        label=_("Text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "maxlength": BODY_MAX}),
    )

    def fields_typed(self) -> CannedReplyFields:
        """What the manager typed, as typed (an unknown language is the service's to refuse)."""
        data = self.data
        return CannedReplyFields(
            title=str(data.get("title", "")),
            language=str(data.get("language", "")),
            body=str(data.get("body", "")),
        )
