"""Parsing what managers send: canned replies and help articles.

The forms only parse (and give the browser its limits); the rules (blank, too long, a title
taken) are the services' to enforce, so a refusal reads the same wherever it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from operators.knowledge.articles import ArticleState, ArticleText
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


def _split(text: str, separators: str) -> list[str]:
    for separator in separators[1:]:
        text = text.replace(separator, separators[0])
    return [part.strip() for part in text.split(separators[0]) if part.strip()]


def tags_typed(data: Mapping[str, Any]) -> list[str]:
    """The tags field: comma-separated (、 and ， too, as a Japanese keyboard types them)."""
    return _split(str(data.get("tags", "")), ",、，")


def article_text_typed(data: Mapping[str, Any], language: str = "") -> ArticleText:
    """One language's fields (``title_ja``, ``body_ja``, ``questions_ja``, one question a line;
    without ``language``: ``title``, ``body``, ``questions``)."""
    suffix = f"_{language}" if language else ""
    return ArticleText(
        title=str(data.get(f"title{suffix}", "")),
        body=str(data.get(f"body{suffix}", "")),
        questions=tuple(_split(str(data.get(f"questions{suffix}", "")), "\n\r")),
    )


def article_fields(state: ArticleState) -> dict[str, str]:
    """The edit form's initial values: the article's category and tags, and each language's
    draft (or live text)."""
    fields = {"category": state.article.category, "tags": ", ".join(state.article.tags)}
    for language, lang_state in state.languages.items():
        current = lang_state.current
        fields[f"title_{language}"] = current.title if current else ""
        fields[f"body_{language}"] = current.body if current else ""
        fields[f"questions_{language}"] = "\n".join(current.questions) if current else ""
    return fields
