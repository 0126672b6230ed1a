"""The knowledge gaps: the questions the AI could not answer from the help articles, grouped
and counted, most frequent first, so managers know which article to write next.

"Could not answer", from what the product already stores with each AI answer (its grounds)
and with the customer's word on it:

- ``no_article``: the turn was a help question (its main intent ``search_faq`` or
  ``answer_general_question``) and the reply carries no article's text (no record of the
  grounds' help articles is ``quoted``): the FAQ agent found nothing fitting, so the reply said
  it could not find an answer, or a person drafted one;
- ``not_solved``: the customer said a help answer did not solve their problem (the buttons,
  or a reply saying it missed the point: ``AnswerFeedback.solved`` false).

The question is what the customer wrote in that turn (their messages the run took). Similar
questions are grouped by the retrieval's own terms (``netshop.knowledge.tokens``): two
questions sharing most of their terms ask the same thing in other words.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final
from uuid import UUID

from django.db.models import Q
from django.utils import timezone

from agents.models import AnswerFeedback, Message, MessageAuthor
from agents.support.vocabulary import Skill
from netshop.knowledge.tokens import normalized, terms

HELP_INTENTS: Final = (Skill.SEARCH_FAQ.value, Skill.ANSWER_GENERAL_QUESTION.value)
GAP_DAYS: Final = 30
# Two questions are one gap when this share of their terms is shared (Jaccard).
SAME_QUESTION: Final = 0.5


class GapReason(StrEnum):
    NO_ARTICLE = "no_article"
    NOT_SOLVED = "not_solved"


@dataclass(frozen=True)
class Unanswered:
    """One question the AI could not answer."""

    question: str
    language: str
    reason: GapReason
    inquiry_id: UUID
    at: dt.datetime


@dataclass
class Gap:
    """Similar questions, counted: what one article would answer."""

    questions: list[Unanswered] = field(default_factory=list)
    terms: set[str] = field(default_factory=set)

    @property
    def count(self) -> int:
        return len(self.questions)

    @property
    def question(self) -> str:
        """The most common wording (the latest of those as common)."""
        wording = Counter(q.question for q in self.questions)
        latest = sorted(self.questions, key=lambda q: q.at, reverse=True)
        return max(latest, key=lambda q: wording[q.question]).question

    @property
    def language(self) -> str:
        return Counter(q.language for q in self.questions).most_common(1)[0][0]

    @property
    def reasons(self) -> list[str]:
        return sorted({q.reason.value for q in self.questions})

    @property
    def latest(self) -> Unanswered:
        return max(self.questions, key=lambda q: q.at)


def knowledge_gaps(*, days: int = GAP_DAYS, now: dt.datetime | None = None) -> list[Gap]:
    """The last ``days`` days' unanswered questions, grouped, most frequent first."""
    since = (now or timezone.now()) - dt.timedelta(days=days)
    return gap_groups(unanswered_questions(since=since))


def unanswered_questions(*, since: dt.datetime) -> list[Unanswered]:
    """Every help answer since ``since`` that carried no article or was not solved, with
    the question it answered (three queries)."""
    help_answers = Q(grounds__reading__intents__0__in=HELP_INTENTS)
    answers = list(
        Message.objects.filter(help_answers, author_kind=MessageAuthor.AI, created_at__gte=since)
        .exclude(grounds__isnull=True)
        .values("pk", "inquiry_id", "turn", "language", "grounds", "created_at")
    )
    unsolved = set(
        AnswerFeedback.objects.filter(
            message_id__in=[a["pk"] for a in answers], solved=False
        ).values_list("message_id", flat=True)
    )
    asked = _questions_of(answers)
    found = []
    for answer in answers:
        reason = _reason(answer, unsolved)
        question = asked.get((answer["inquiry_id"], answer["turn"]), "")
        if reason is not None and question:
            reading = (answer["grounds"] or {}).get("reading") or {}
            language = answer["language"] or reading.get("language") or "ja"
            found.append(
                Unanswered(question, language, reason, answer["inquiry_id"], answer["created_at"])
            )
    return found


def _reason(answer: Mapping[str, Any], unsolved: set[UUID]) -> GapReason | None:
    if answer["pk"] in unsolved:
        return GapReason.NOT_SOLVED
    articles = answer["grounds"].get("records", {}).get("faq") or []
    if not any(record.get("quoted") for record in articles):
        return GapReason.NO_ARTICLE
    return None


def _questions_of(answers: Sequence[Mapping[str, Any]]) -> dict[tuple[UUID, int | None], str]:
    """What the customer wrote in each answer's turn (a turn may take several messages)."""
    turns = {(a["inquiry_id"], a["turn"]) for a in answers if a["turn"] is not None}
    if not turns:
        return {}
    written = Message.objects.filter(
        author_kind=MessageAuthor.CUSTOMER,
        inquiry_id__in={inquiry for inquiry, _ in turns},
        turn__in={turn for _, turn in turns},
    ).order_by("created_at", "id")
    by_turn: dict[tuple[UUID, int | None], list[str]] = defaultdict(list)
    for inquiry_id, turn, text in written.values_list("inquiry_id", "turn", "text"):
        if (inquiry_id, turn) in turns:
            by_turn[(inquiry_id, turn)].append(text.strip())
    return {key: "\n".join(texts) for key, texts in by_turn.items()}


def gap_groups(questions: Iterable[Unanswered]) -> list[Gap]:
    """Similar questions grouped (same normalised text, or most terms shared), the largest
    group first, then the most recently asked. Pure."""
    gaps: list[Gap] = []
    by_text: dict[str, Gap] = {}
    for question in sorted(questions, key=lambda q: q.at):
        text = " ".join(normalized(question.question).split())
        asked = set(terms(question.question, keep_grammar=False))
        gap = by_text.get(text) or _similar(gaps, asked)
        if gap is None:
            gap = Gap()
            gaps.append(gap)
        gap.questions.append(question)
        gap.terms |= asked
        by_text[text] = gap
    return sorted(gaps, key=lambda g: (-g.count, -g.latest.at.timestamp()))


def _similar(gaps: list[Gap], asked: set[str]) -> Gap | None:
    """The gap whose terms share most with ``asked``, if they share enough."""
    best, best_share = None, 0.0
    for gap in gaps:
        union = asked | gap.terms
        share = len(asked & gap.terms) / len(union) if union else 0.0
        if share > best_share:
            best, best_share = gap, share
    return best if best_share >= SAME_QUESTION else None
