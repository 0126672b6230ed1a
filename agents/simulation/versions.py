"""What a run ran against: the model, the prompts, the router, the policy and the articles.

Read in the sandbox child (its settings are the candidate's), sent to the parent first and
stored on the run, so two runs can be told apart and a regression traced to what changed.

"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from django.conf import settings

from agents.providers import router_model_file
from agents.simulation.sandbox.environment import POLICY_VERSION_VARIABLE
from agents.team import prompts
from agents.team.specialists import SPECIALISTS
from netshop.knowledge.selectors import articles_published
from netshop.policy import policy_in_force


def prompt_digest() -> str:
    """SHA-256 of every prompt the team sends: the supervisor's, the writer's and each
    specialist's (in agent order)."""
    texts = [prompts.CLASSIFY_PROMPT, prompts.WRITER_PROMPT, prompts.QUESTION_PROMPT]
    texts += [SPECIALISTS[name].prompt for name in sorted(SPECIALISTS)]
    return hashlib.sha256("\x00".join(texts).encode("utf-8")).hexdigest()


def router_digest() -> str:
    """SHA-256 of the offline router's model file in force."""
    return hashlib.sha256(router_model_file().read_bytes()).hexdigest()


def policy_version() -> str:
    """The shop's policy version the run ran under: the one the parent read from the shop's
    database and passed down (the sandbox's own database has none saved), else this
    database's."""
    return os.environ.get(POLICY_VERSION_VARIABLE) or str(policy_in_force().version)


def articles_version() -> str:
    """The help articles answered from: how many texts are live and a digest of what they
    say (key, language, title, body), the same in the shop and in the sandbox that imported
    them, so two runs on different articles tell apart."""
    live = articles_published()
    stamp = "\x00".join(sorted(f"{v.article.key} {v.language} {v.title} {v.body}" for v in live))
    return f"{len(live)} texts, {hashlib.sha256(stamp.encode()).hexdigest()[:12]}"


def versions_in_force() -> dict[str, Any]:
    """The versions this process runs with, as stored on ``SimulationRun.versions``."""
    provider = settings.NETSHOP_MODEL_PROVIDER
    remote = provider == "openai"
    return {
        "provider": provider,
        "models": dict(settings.NETSHOP_MODEL_NAMES) if remote else {},
        "base_url": settings.OPENAI_BASE_URL if remote else "",
        "prompt_digest": prompt_digest(),
        "router_digest": router_digest(),
        "policy_version": policy_version(),
        "articles_version": articles_version(),
    }
