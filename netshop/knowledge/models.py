"""Help articles: the shop's own knowledge, kept by its managers, that the AI answers from.

One ``HelpArticle`` is one topic (what it is about: its category and topic tags); its text is
kept per language in ``ArticleVersion`` rows, so the Japanese and English versions of a topic
are linked by their article. A version is a draft until it is published; a published version
is never changed again (the grounds of an answer name it), and the live text of an article in
a language is its latest published version.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from netshop.languages import Language


class ArticleCategory(models.TextChoices):
    """Where an article sits in the shop's help (the FAQ's categories)."""

    RETURNS = "returns"
    DELIVERY = "delivery"
    PAYMENT = "payment"
    ACCOUNT = "account"
    COUPONS = "coupons"
    ORDERS = "orders"
    OTHER = "other"


class ArticleStatus(models.TextChoices):
    DRAFT = "draft"
    PUBLISHED = "published"


class HelpArticle(models.Model):
    """One topic of the shop's help; ``key`` names it in files and grounds across databases."""

    key = models.SlugField(max_length=80, unique=True)
    category = models.CharField(max_length=12, choices=ArticleCategory.choices)
    tags = models.JSONField(
        default=list,
        blank=True,
        help_text="Topic tags (netshop.knowledge.tags): what the article is about.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Moved by every publish and every change of category or tags: the retrieval index's stamp.
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["category", "key"]
        verbose_name = "help article"
        verbose_name_plural = "help articles"

    def __str__(self) -> str:
        return self.key


class ArticleVersion(models.Model):
    """One language's text of an article at one point: a draft, or a published version."""

    article = models.ForeignKey(HelpArticle, on_delete=models.CASCADE, related_name="versions")
    language = models.CharField(max_length=2, choices=Language.choices)
    number = models.PositiveIntegerField(help_text="1, 2, ... per article and language.")
    title = models.CharField(max_length=300)
    body = models.TextField()
    questions = models.JSONField(
        default=list,
        blank=True,
        help_text="Other ways customers ask this question; searched with the title.",
    )
    status = models.CharField(
        max_length=10, choices=ArticleStatus.choices, default=ArticleStatus.DRAFT
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty: written by the system (an import from a file).",
    )
    created_at = models.DateTimeField(default=timezone.now)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["article", "language", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["article", "language", "number"], name="article_version_number"
            ),
            # One draft at a time per article and language: the next version being written.
            models.UniqueConstraint(
                fields=["article", "language"],
                condition=Q(status="draft"),
                name="article_one_draft",
            ),
        ]
        verbose_name = "article version"
        verbose_name_plural = "article versions"

    def __str__(self) -> str:
        return f"{self.article.key} {self.language} v{self.number}"
