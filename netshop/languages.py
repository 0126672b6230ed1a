"""The languages the shop serves its customers in (and keeps its help articles in).

Its own module so the models of the shop's sub-packages (``netshop.knowledge``) can use it
without importing ``netshop.models``, which imports them; ``netshop.models`` re-exports it.
"""

from __future__ import annotations

from django.db import models


class Language(models.TextChoices):
    JAPANESE = "ja", "日本語"
    ENGLISH = "en", "English"
