"""The router's labelled examples (``examples/<lang>/*.jsonl``), read and checked.

Labels follow ``examples/README.md``: the intents a message asks for, main first, and the
agents only where they differ from what the intents imply through the cards.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from agents.contract.cards import agent_for_skill, dependencies
from agents.contract.schemas import AGENT_NAMES, INTENTS, AgentName, Intent

EXAMPLES_DIR: Final = Path(__file__).with_name("examples")
LANGUAGES: Final = ("ja", "en")


@dataclass(frozen=True)
class Example:
    text: str
    language: str
    intents: tuple[Intent, ...]
    agents: tuple[AgentName, ...]
    source: str  # file:line, for a message that names the culprit


def agents_for_intents(intents: Iterable[str]) -> tuple[AgentName, ...]:
    """The agents the intents need through the cards: each intent's owner and its dependencies."""
    needed: set[AgentName] = set()
    for intent in intents:
        agent = agent_for_skill(intent)
        if agent is None:
            raise LookupError(f"no agent card declares the skill {intent!r}")
        needed |= {agent, *dependencies(agent)}
    return tuple(a for a in AGENT_NAMES if a in needed)


def parse_line(line: str, *, language: str, source: str) -> Example:
    """One JSON line as an example; a ValueError names what is wrong and where."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"{source}: invalid JSON ({error.msg})") from error
    text = record.get("text")
    intents = record.get("intents")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{source}: 'text' must be a non-empty string")
    if not isinstance(intents, list):
        raise ValueError(f"{source}: 'intents' must be a list")
    if not intents and not record.get("agents"):
        raise ValueError(f"{source}: a message asking for nothing names its 'agents' (faq)")
    unknown = [i for i in intents if i not in INTENTS]
    if unknown:
        raise ValueError(f"{source}: unknown intents {unknown}")
    agents = record.get("agents") or agents_for_intents(intents)
    if any(a not in AGENT_NAMES for a in agents):
        raise ValueError(f"{source}: unknown agents in {agents}")
    return Example(
        text=text.strip(),
        language=language,
        intents=tuple(dict.fromkeys(intents)),
        agents=tuple(a for a in AGENT_NAMES if a in agents),
        source=source,
    )


def read_file(path: Path, *, language: str) -> list[Example]:
    examples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            examples.append(parse_line(line, language=language, source=f"{path.name}:{number}"))
    return examples


def load_examples(directory: Path = EXAMPLES_DIR) -> list[Example]:
    """Every example under ``directory``, one folder per language, duplicates dropped."""
    seen: set[str] = set()
    examples: list[Example] = []
    for language in LANGUAGES:
        for path in sorted((directory / language).glob("*.jsonl")):
            for example in read_file(path, language=language):
                if example.text not in seen:
                    seen.add(example.text)
                    examples.append(example)
    return examples


def digest(examples: Iterable[Example]) -> str:
    """A fingerprint of the training data, stored in the model it produced."""
    hasher = hashlib.sha256()
    for example in examples:
        hasher.update(json.dumps([example.text, example.intents, example.agents]).encode())
    return hasher.hexdigest()[:16]
