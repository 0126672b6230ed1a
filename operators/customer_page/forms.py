from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from agents.models import FEEDBACK_COMMENT_MAX, FEEDBACK_RATINGS
from agents.support.escalations.customer_feedback import Feedback
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


class FeedbackForm(forms.Form):
    """The customer's word on an AI answer: which button they pressed, and optionally a
    rating and a comment. Whose it is comes from the login; the rules are the service's."""

    solved = forms.TypedChoiceField(
        choices=[("yes", _("Solved")), ("no", _("Not solved"))], coerce=lambda v: v == "yes"
    )
    rating = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in FEEDBACK_RATINGS],
        coerce=int,
        empty_value=None,
        required=False,
    )
    comment = forms.CharField(max_length=FEEDBACK_COMMENT_MAX, required=False)

    def feedback(self) -> Feedback:
        data = self.cleaned_data
        return Feedback(solved=data["solved"], rating=data["rating"], comment=data["comment"])
