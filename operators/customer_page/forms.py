from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from netshop.text import shows_nothing


class InquiryForm(forms.Form):
    """A new inquiry. Who sends it comes from the login, never from the form."""

    text = forms.CharField(
        label=_("Your message"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4, "id": "inquiry-text"}),
    )
    # One key per rendered form: a double submit finds the inquiry the first one made.
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        if shows_nothing(text):  # the intake service refuses it too; say so beside the field
            raise forms.ValidationError(_("Please write your message."))
        return text


class ReplyForm(InquiryForm):
    """A reply in one of the customer's conversations; the key makes a double submit one
    message (the conversation service replays it)."""

    text = forms.CharField(
        label=_("Your reply"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
