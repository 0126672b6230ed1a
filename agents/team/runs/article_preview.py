"""How the AI would answer a sample question if a help article's draft were published.

For the manager writing the draft, before publishing: the FAQ agent's search runs with the
draft in place of its article's live version in that language (an index built for this one
search, ``netshop.knowledge.retrieval.article_search(draft=...)``), and the reply is written
by the same writer the run's ``merge`` node uses (``supervisor.merge_reply``), from the same
kind of state the FAQ agent would leave. Nothing is written to the database, no run starts,
nothing is sent: the customer never sees a preview.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

from agents.support.vocabulary import Skill
from agents.team.graph.state import InquiryState
from agents.team.graph.supervisor import merge_reply
from netshop.errors import DomainError
from netshop.knowledge.models import ArticleVersion
from netshop.knowledge.retrieval import ArticleHit, article_search

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ArticlePreview:
    """The reply the customer would read, and the articles the FAQ agent would have found
    (best first: whether the draft is among them, and where, is the point of a preview)."""

    reply: str
    hits: tuple[ArticleHit, ...]
    draft_found: bool
    draft_rank: int | None  # 1 for the best article; None when the draft was not found


def article_answer_preview(
    *, question: str, language: str, draft: ArticleVersion
) -> ArticlePreview:
    """What the FAQ agent would answer ``question`` in ``language`` were ``draft`` published
    (``draft`` may be any version: a draft, or an older version to compare).
    ``DomainError("preview_unavailable")`` when the writer (a real model) fails."""
    hits = tuple(article_search(query=question, language=language, limit=3, draft=draft))
    rank = next(
        (
            i
            for i, hit in enumerate(hits, 1)
            if hit.article_id == draft.article_id and hit.version == draft.number
        ),
        None,
    )
    try:
        reply = merge_reply(_faq_state(question, language, hits))
    except Exception as exc:  # a real model may fail: say so, as a decision's preview does
        logger.warning("article preview writing failed: %s", type(exc).__name__)
        raise DomainError("preview_unavailable") from None
    return ArticlePreview(reply=reply, hits=hits, draft_found=rank is not None, draft_rank=rank)


def _faq_state(question: str, language: str, hits: tuple[ArticleHit, ...]) -> InquiryState:
    """The state a run is in after the FAQ agent searched for ``question``."""
    search: dict[str, Any] = {"entries": [hit.as_dict() for hit in hits]}
    state = {
        "text": question,
        "language": language,
        "classification": {"intent": Skill.SEARCH_FAQ, "language": language},
        "plan": [{"step": 1, "agent": "faq", "intent": Skill.SEARCH_FAQ, "status": "done"}],
        "envelopes": {
            "faq": {"agent": "faq", "status": "success", "data": {Skill.SEARCH_FAQ: search}}
        },
    }
    return cast(InquiryState, state)
