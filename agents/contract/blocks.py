"""The prompt blocks: what the AI team hands a model, and how a provider reads it back.

The graph speaks to every model in tagged blocks (``<inquiry>``, ``<brief>``, ...) inside its
messages. A real model reads them as text under the prompts of ``agents.team.prompts``; the
offline model parses them. Both sides build and read them here, so the blocks a provider is
handed are the blocks the graph wrote, whichever provider runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

BlockName = Literal["conversation", "question", "inquiry", "ask", "brief", "context"]

_TODAY = re.compile(r"Today is (\d{4}-\d{2}-\d{2})")


def block(name: BlockName, content: str) -> str:
    """``content`` between ``<name>`` tags, on lines of its own."""
    return f"<{name}>\n{content}\n</{name}>"


def json_block(name: BlockName, value: Any) -> str:
    """``value`` as JSON (non-ASCII kept as written) between ``<name>`` tags."""
    return block(name, json.dumps(value, ensure_ascii=False, default=str))


def block_text(text: str, name: BlockName) -> str:
    """The content of the first ``<name>`` block of ``text``, or '' when there is none."""
    match = re.search(rf"<{name}>\s*(.*?)\s*</{name}>", text, flags=re.DOTALL)
    return match.group(1) if match else ""


def block_json(text: str, name: BlockName, default: Any) -> Any:
    """The JSON of the first ``<name>`` block, or ``default`` when there is none."""
    content = block_text(text, name)
    return json.loads(content) if content else default


def today_line(today: date) -> str:
    return f"Today is {today.isoformat()}."


def today_from(text: str) -> date | None:
    """The date a prompt says it is today, or None when it says none."""
    match = _TODAY.search(text)
    return date.fromisoformat(match.group(1)) if match else None


@dataclass(frozen=True)
class ClassifyRequest:
    """What the supervisor's classifier is handed: the new text, with the conversation
    before this turn and the question the shop asked last, which the text may answer."""

    inquiry: str
    today: date | None = None
    conversation: list[dict[str, str]] = field(default_factory=list)
    question: dict[str, Any] | None = None

    def render(self) -> str:
        parts = [today_line(self.today)] if self.today else []
        if self.conversation:
            parts.append(json_block("conversation", self.conversation))
        if self.question:
            parts.append(json_block("question", self.question))
        parts.append(block("inquiry", self.inquiry))
        return "\n".join(parts)

    @classmethod
    def parse(cls, text: str) -> ClassifyRequest:
        """The request back from its text; a text with no blocks is all inquiry."""
        question = block_json(text, "question", None)
        conversation = block_json(text, "conversation", [])
        return cls(
            inquiry=block_text(text, "inquiry") or text,
            today=today_from(text),
            conversation=conversation if isinstance(conversation, list) else [],
            question=question if isinstance(question, dict) else None,
        )


WriterBrief = Literal["brief", "ask"]


def writer_request(kind: WriterBrief, brief: dict[str, Any]) -> str:
    """The writer's task: a reply from a ``brief``, or a question to the customer (``ask``)."""
    return json_block(kind, brief)


def writer_brief(text: str) -> tuple[WriterBrief, dict[str, Any]] | None:
    """Which writing task ``text`` hands over, with its brief; None when it is neither."""
    for kind in ("ask", "brief"):
        content = block_json(text, kind, None)
        if isinstance(content, dict):
            return kind, content
    return None


def specialist_task(instruction: str, context: dict[str, Any]) -> str:
    """A specialist's task: the supervisor's standalone instruction and the context keys its
    route requires, as JSON."""
    return f"{instruction}\n{json_block('context', context)}"


def customer_words(text: str) -> str:
    """The customer's words, quoted for a specialist's instruction."""
    return block("inquiry", text)
