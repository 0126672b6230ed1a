"""The sandbox child's environment: the product's, with the ways out closed and the
candidate applied (``sandbox.settings`` closes the rest inside the process)."""

from __future__ import annotations

import hashlib
import os
from typing import Final

from django.conf import settings

from agents.simulation.candidates import ARTICLES_VARIABLE, Candidate
from netshop.policy import LIMITS, policy_in_force

SETTINGS_MODULE: Final = "agents.simulation.sandbox.settings"
# What the child must not inherit: the broker and live layer, the owner's URL (the sandbox
# URL already names its role), a mail server, injected faults, retired audit keys.
CLOSED: Final = (
    "REDIS_URL",
    "MIGRATION_DATABASE_URL",
    "EMAIL_HOST",
    "NETSHOP_FAULTS",
    "NETSHOP_AUDIT_KEYS_OLD",
    "NETSHOP_AUDIT_ANCHOR_SINK",
    "NETSHOP_ROUTER_MODEL",
    ARTICLES_VARIABLE,
)
ANCHOR_FILE: Final = "sandbox-audit-anchors.jsonl"
# The shop's policy version the child runs under (``versions.policy_version``).
POLICY_VERSION_VARIABLE: Final = "NETSHOP_SIMULATION_POLICY_VERSION"


def sandbox_audit_key() -> str:
    """The sandbox chain's own HMAC key (``KEY_ID:SECRET``): derived from this deployment's
    secret, so the sandbox's chain verifies across runs and is never signed with the shop's."""
    secret = hashlib.sha256(f"simulation sandbox\x00{settings.SECRET_KEY}".encode()).hexdigest()
    return f"sandbox:{secret}"


def sandbox_environment(*, url: str, candidate: Candidate, articles: str = "") -> dict[str, str]:
    """The environment to start the child with; ``articles``: the shop's published articles'
    export, which the child answers from unless the candidate names its own."""
    env = {name: value for name, value in os.environ.items() if name not in CLOSED}
    env.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE=SETTINGS_MODULE,
        NETSHOP_AUDIT_KEY=sandbox_audit_key(),
        NETSHOP_AUDIT_ANCHOR_PATH=str(settings.VAR_DIR / ANCHOR_FILE),
        LOG_LEVEL="ERROR",
        PYTHONUNBUFFERED="1",
    )
    env.update(policy_environment(candidate))
    if articles:
        env[ARTICLES_VARIABLE] = articles
    env.update(candidate.environment())
    return env


def policy_environment(candidate: Candidate) -> dict[str, str]:
    """The shop's policy in force, as the environment the child reads its initial policy from
    (the sandbox's database has no saved version), and its version: "3", or "3+candidate"
    when the candidate changes a limit (its own values then override these)."""
    policy = policy_in_force()
    env = {limit.setting: str(getattr(policy, limit.name)) for limit in LIMITS}
    env[POLICY_VERSION_VARIABLE] = f"{policy.version}{'+candidate' if candidate.policy else ''}"
    return env
