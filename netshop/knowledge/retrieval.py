"""Finding the article that answers a customer's question, whatever words either uses.

Two signals, summed per article:

1. BM25 over the terms of ``netshop.knowledge.tokens`` (Japanese bigrams, English stems), the
   title and the alternative questions counted twice as much as the body; divided by the
   score an article covering the whole question would get, so it says how much of the
   question an article covers (0..1) whatever the question's length.
2. Concepts (``netshop.knowledge.concepts``): the customer's words read into topic names, met
   by the article's topic tags (by what its title and questions name when it has no tags).
   "My parcel was handed to a neighbour" and "配達完了になっているのに届いていない" share no
   word but one concept.

The index is built per process from the published articles and kept while nothing changed:
each search first reads the knowledge stamp (one cheap query), and a publish anywhere (any
web or worker process) changes it, so the next search in every process rebuilds its index,
with no restart and no message between processes.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from netshop.knowledge.concepts import concepts_in
from netshop.knowledge.models import ArticleVersion
from netshop.knowledge.selectors import articles_published, knowledge_stamp
from netshop.knowledge.tokens import terms

K1: Final = 1.2
B: Final = 0.75
TITLE_WEIGHT: Final = 2  # title and questions: what the article answers, said briefly
# Below this an article shares a stray character or two with the question, nothing more.
MIN_SCORE: Final = 0.07
CONCEPT_WEIGHT: Final = 1.0  # one shared concept weighs as much as the best BM25 score


@dataclass(frozen=True)
class ArticleHit:
    """One article found: the version searched (the live one, or a draft being previewed)."""

    article_id: int
    key: str
    version: int
    title: str
    body: str
    category: str
    tags: tuple[str, ...]
    score: float

    def as_dict(self) -> dict[str, Any]:
        """What the FAQ tools return: enough for the grounds to name article and version."""
        return {
            "id": self.article_id,
            "article": self.key,
            "version": self.version,
            "title": self.title,
            "body": self.body,
            "category": self.category,
            "tags": list(self.tags),
        }


@dataclass(frozen=True)
class _Document:
    version: ArticleVersion
    terms: Counter[str]
    length: int
    concepts: frozenset[str]


@dataclass
class ArticleIndex:
    """The published articles of one language, ready to search (BM25 statistics and each
    article's concepts)."""

    documents: list[_Document] = field(default_factory=list)
    idf: dict[str, float] = field(default_factory=dict)
    average_length: float = 1.0

    @classmethod
    def build(cls, versions: Iterable[ArticleVersion]) -> ArticleIndex:
        documents = [_document(v) for v in versions]
        frequency: Counter[str] = Counter()
        for doc in documents:
            frequency.update(doc.terms.keys())
        n = len(documents)
        idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in frequency.items()}
        average = sum(d.length for d in documents) / n if n else 1.0
        return cls(documents=documents, idf=idf, average_length=average or 1.0)

    def search(
        self, query: str, *, category: str | None = None, limit: int = 3
    ) -> list[ArticleHit]:
        """The best articles for ``query``, best first; [] when nothing relates to it."""
        asked = Counter(terms(query, keep_grammar=False))
        wanted = concepts_in(query)
        if not asked and not wanted:
            return []
        ceiling = self._ceiling(asked)
        scored = []
        for doc in self.documents:
            if category and doc.version.article.category != category:
                continue
            lexical = self._bm25(asked, doc) / ceiling if ceiling else 0.0
            score = lexical + CONCEPT_WEIGHT * len(wanted & doc.concepts)
            if score >= MIN_SCORE:
                scored.append((score, doc))
        scored.sort(key=lambda pair: (-pair[0], pair[1].version.article.key))
        return [_hit(doc, score) for score, doc in scored[:limit]]

    def _ceiling(self, asked: Counter[str]) -> float:
        """The BM25 score of an article holding every term of the question often: scores are
        divided by it, so the lexical signal says how much of the question an article covers
        (a word no article has counts as the rarest, uncovered)."""
        rarest = max(self.idf.values(), default=1.0)
        return sum(self.idf.get(term, rarest) * (K1 + 1) for term in asked)

    def _bm25(self, asked: Counter[str], doc: _Document) -> float:
        score = 0.0
        norm = K1 * (1 - B + B * doc.length / self.average_length)
        for term in asked:
            tf = doc.terms.get(term, 0)
            if tf:
                score += self.idf[term] * tf * (K1 + 1) / (tf + norm)
        return score


def _document(version: ArticleVersion) -> _Document:
    brief = " ".join([version.title, *version.questions])
    counted = Counter(terms(brief) * TITLE_WEIGHT + terms(version.body))
    # An article's tags say what it is about; its wording is read only when it has none.
    concepts = frozenset(version.article.tags) or concepts_in(brief)
    return _Document(version, counted, sum(counted.values()), concepts)


def _hit(doc: _Document, score: float) -> ArticleHit:
    version = doc.version
    return ArticleHit(
        article_id=version.article_id,
        key=version.article.key,
        version=version.number,
        title=version.title,
        body=version.body,
        category=version.article.category,
        tags=tuple(version.article.tags),
        score=round(score, 4),
    )


_lock = threading.Lock()
_indexes: dict[str, tuple[tuple[object, ...], ArticleIndex]] = {}


def live_index(language: str) -> ArticleIndex:
    """This process's index of the published articles in ``language``, rebuilt when the
    knowledge stamp moved since it was built (a publish in any process)."""
    stamp = knowledge_stamp()
    cached = _indexes.get(language)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    index = ArticleIndex.build(articles_published(language=language))
    with _lock:
        _indexes[language] = (stamp, index)
    return index


def article_search(
    *,
    query: str,
    language: str,
    category: str | None = None,
    limit: int = 3,
    draft: ArticleVersion | None = None,
) -> list[ArticleHit]:
    """The published articles in ``language`` that best answer ``query``, best first.

    ``draft`` searches as if that version were published (a preview): it takes the place of
    its article's live version in its language, in an index built for this search only.
    """
    if draft is None or draft.language != language:
        return live_index(language).search(query, category=category, limit=limit)
    return _with_draft(language, draft).search(query, category=category, limit=limit)


def _with_draft(language: str, draft: ArticleVersion) -> ArticleIndex:
    versions: Sequence[ArticleVersion] = [
        v for v in articles_published(language=language) if v.article_id != draft.article_id
    ]
    return ArticleIndex.build([*versions, draft])
