"""The reply a decision would send, as the AI team would write it: a port of the domain.

Deciding needs it (an operator approves the exact text they were shown) but writing replies is
the AI team's work, above this layer. So the domain declares the writer it needs here and the
team supplies it (``agents.team.runs.preview.decision_reply_preview``), registered by
``agents.apps`` when Django starts: the domain never imports the team.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.module_loading import import_string

from agents.support.escalations.language import LanguageCheck

if TYPE_CHECKING:
    from agents.models import Escalation


@dataclass(frozen=True)
class ReplyPreview:
    """What the customer will be told, and whether the operator's words fit their language.

    ``exact`` is False when no waiting run could be read (the reply is then written when the
    run resumes); ``outcomes`` are the results the text assumes, by action id.
    """

    text: str
    language: LanguageCheck
    exact: bool = True
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def language_mismatch(self) -> bool:
        return self.language.mismatch

    def record(self) -> dict[str, Any]:
        """What the decision carries into the run: the text and what it assumed."""
        return {"text": self.text, "outcomes": self.outcomes}

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "exact": self.exact,
            "customer_language": self.language.customer,
            "text_language": self.language.text,
            "language_mismatch": self.language_mismatch,
        }


class ReplyPreviewer(Protocol):
    def __call__(
        self,
        *,
        escalation: Escalation,
        decision: str,
        params: dict[str, Any] | None = None,
        reason: str = "",
        reply: str = "",
        operator: str = "",
    ) -> ReplyPreview: ...


# The writer's dotted path, imported on first use: naming it costs a process nothing at
# start-up (the graph it needs is loaded only where a decision is previewed).
_previewer_path: list[str] = []


def reply_previewer_register(dotted_path: str) -> None:
    """Name the team's reply writer (once; registering again replaces it)."""
    _previewer_path[:] = [dotted_path]


def reply_previewer() -> ReplyPreviewer:
    """The registered writer; call it with the escalation and the decision."""
    if not _previewer_path:
        raise RuntimeError("no reply previewer registered (agents.apps registers the team's)")
    previewer: ReplyPreviewer = import_string(_previewer_path[0])
    return previewer
