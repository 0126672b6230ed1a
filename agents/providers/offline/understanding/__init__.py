"""The offline model's understanding of customer inquiries, in Japanese and English.

A learned router (``router``, trained by ``manage.py train_router`` on ``examples/``) reads
which specialists a message needs and what it asks; rules read the entities (``entities``)
and flag injection attempts (``injection``). Pure: no database, no network.
"""

from agents.providers.offline.understanding.classifier import classify_text
from agents.providers.offline.understanding.entities import extract_entities
from agents.support.text import detect_language

__all__ = ["classify_text", "detect_language", "extract_entities"]
