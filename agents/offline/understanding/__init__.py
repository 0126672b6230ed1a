"""The offline model's understanding of customer inquiries, in Japanese and English.

Deterministic and rule-based: lexicons of weighted intent cues per language
(``cues_ja``, ``cues_en``), patterns for entities, and a scorer that picks the main intent,
the secondary ones and the agents they need. Pure: no database, no network.
"""

from agents.offline.understanding.classifier import classify_text
from agents.offline.understanding.entities import extract_entities
from agents.offline.understanding.text import detect_language

__all__ = ["classify_text", "detect_language", "extract_entities"]
