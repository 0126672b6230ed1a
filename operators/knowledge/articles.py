"""Help articles as managers keep them in the console: the list, one article's two languages
side by side, and saving both at once.

The writing itself is ``netshop.knowledge.services``' (drafts, publishing, the audit); what is
here is the console's part: which languages a save touches, and what each page shows, read in
a fixed number of queries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction

from netshop.knowledge.models import ArticleStatus, ArticleVersion, HelpArticle
from netshop.knowledge.services import article_create, article_describe, article_draft_save
from netshop.models import Language

LANGUAGES: tuple[str, ...] = (Language.JAPANESE, Language.ENGLISH)  # side by side, ja first


@dataclass(frozen=True)
class ArticleText:
    """One language's text as a manager writes it; blank everywhere: not written yet."""

    title: str = ""
    body: str = ""
    questions: tuple[str, ...] = ()

    @property
    def blank(self) -> bool:
        return not (
            self.title.strip() or self.body.strip() or any(q.strip() for q in self.questions)
        )

    def same_as(self, version: ArticleVersion | None) -> bool:
        if version is None:
            return self.blank
        return (self.title.strip(), self.body.strip(), _questions(self.questions)) == (
            version.title,
            version.body,
            list(version.questions),
        )


@dataclass
class LanguageState:
    """An article in one language: the version the AI answers from, the draft pending, and
    every version (newest first)."""

    language: str
    live: ArticleVersion | None = None
    draft: ArticleVersion | None = None
    versions: list[ArticleVersion] = field(default_factory=list)

    @property
    def current(self) -> ArticleVersion | None:
        """What the editor opens with: the draft being written, else the live text."""
        return self.draft or self.live


@dataclass
class ArticleState:
    article: HelpArticle
    languages: dict[str, LanguageState]

    @property
    def draft_pending(self) -> bool:
        return any(state.draft is not None for state in self.languages.values())


def article_states(articles: Sequence[HelpArticle]) -> list[ArticleState]:
    """Each article's state in both languages, from one query over their versions."""
    versions: dict[tuple[int, str], list[ArticleVersion]] = defaultdict(list)
    chosen = ArticleVersion.objects.filter(article__in=articles).select_related(
        "created_by", "published_by"
    )
    for version in chosen.order_by("-number"):
        versions[(version.article_id, version.language)].append(version)
    return [
        ArticleState(
            article=article,
            languages={
                lang: _language_state(lang, versions[(article.pk, lang)]) for lang in LANGUAGES
            },
        )
        for article in articles
    ]


def article_shelf() -> list[ArticleState]:
    """Every article, by category and key, with both languages' states (two queries)."""
    return article_states(list(HelpArticle.objects.order_by("category", "key")))


def article_state(article: HelpArticle) -> ArticleState:
    return article_states([article])[0]


def _language_state(language: str, versions: list[ArticleVersion]) -> LanguageState:
    return LanguageState(
        language=language,
        live=next((v for v in versions if v.status == ArticleStatus.PUBLISHED), None),
        draft=next((v for v in versions if v.status == ArticleStatus.DRAFT), None),
        versions=versions,
    )


@transaction.atomic
def article_edit_save(
    *,
    article: HelpArticle,
    category: str,
    tags: Sequence[str],
    texts: dict[str, ArticleText],
    user: User,
) -> list[ArticleVersion]:
    """Save what the manager changed of ``article``: its category and tags, and a draft for
    each language whose text differs from its draft (or live text). All or nothing: a refused
    language (blank title, say) leaves the other one unsaved too. Publishing is separate."""
    article_describe(article=article, category=category, tags=tags, user=user)
    state = article_state(article)
    saved = []
    for language in LANGUAGES:
        text = texts.get(language, ArticleText())
        if text.same_as(state.languages[language].current):
            continue
        saved.append(_draft_save(article, language, text, user))
    return saved


@transaction.atomic
def article_write(
    *, key: str, category: str, tags: Sequence[str], language: str, text: ArticleText, user: User
) -> HelpArticle:
    """A new article with its first draft in ``language`` (an article with no text is no use
    to anyone, so both are written or neither)."""
    article = article_create(key=key.strip(), category=category, tags=tags, user=user)
    _draft_save(article, language, text, user)
    return article


def _draft_save(
    article: HelpArticle, language: str, text: ArticleText, user: User
) -> ArticleVersion:
    return article_draft_save(
        article=article,
        language=language,
        title=text.title,
        body=text.body,
        questions=_questions(text.questions),
        user=user,
    )


def _questions(questions: Sequence[str]) -> list[str]:
    return [q.strip() for q in questions if q.strip()]
