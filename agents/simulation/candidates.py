"""Candidate configurations: what a shop wants to try before it deploys it.

A small JSON or TOML file (by its extension)::

    name = "gpt-4.1-mini, coupon cap 500"
    provider = "openai"                 # or "offline"
    model = "gpt-4.1-mini"              # every role; or [models] supervisor, specialist, writer
    base_url = "http://127.0.0.1:8010/v1"
    api_key_env = "CANDIDATE_API_KEY"   # the NAME of the variable holding the key, never the key
    router_model = "router/retrained.json.gz"   # the offline router (train_router's output)
    articles = "exports/articles.jsonl"          # the help articles' export (a hook, versions)
    [policy]
    NETSHOP_COUPON_CAP_YEN = 500

Every key is optional; what a candidate leaves out is the configuration in force. A candidate
is applied as the sandbox child's environment (``environment``), the way the product itself is
configured, so nothing but the sandbox sees it. Paths are read relative to the file.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from netshop.policy import LIMITS

PROVIDERS: Final = ("offline", "openai")
ROLES: Final = ("supervisor", "specialist", "writer")
# The policy settings a candidate may change (environment names, README's configuration): the
# shop's policy limits, and the autonomy and follow-up settings beside them.
POLICY_SETTINGS: Final = frozenset(
    {limit.setting for limit in LIMITS}
    | {"NETSHOP_AUTONOMY_MIN_CONFIDENCE", "NETSHOP_AWAITING_CUSTOMER_HOURS"}
)
# The help articles' file the sandbox child answers from after seeding (the shop's or ours).
ARTICLES_VARIABLE: Final = "NETSHOP_ARTICLES_EXPORT"
KEYS: Final = frozenset(
    {"name", "provider", "model", "models", "base_url", "api_key_env", "router_model"}
    | {"articles", "policy"}
)


class CandidateError(ValueError):
    """A candidate file that cannot be applied, and why."""


@dataclass(frozen=True)
class Candidate:
    """A configuration to try; empty, the configuration in force."""

    name: str = ""
    provider: str = ""
    models: dict[str, str] = field(default_factory=dict)
    base_url: str = ""
    api_key_env: str = ""
    router_model: str = ""
    articles: str = ""
    policy: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """As stored on the run (no secret: the key's variable name only)."""
        return {k: v for k, v in self.__dict__.items() if v}

    def environment(self) -> dict[str, str]:
        """The environment variables that apply it in the sandbox child."""
        env: dict[str, str] = dict(self.policy)
        if self.provider:
            env["NETSHOP_MODEL_PROVIDER"] = self.provider
        for role, model in self.models.items():
            env[f"NETSHOP_MODEL_{role.upper()}"] = model
        if self.base_url:
            env["OPENAI_BASE_URL"] = self.base_url
        if self.api_key_env:
            env["OPENAI_API_KEY"] = os.environ.get(self.api_key_env, "")
        if self.router_model:
            env["NETSHOP_ROUTER_MODEL"] = self.router_model
        if self.articles:
            env[ARTICLES_VARIABLE] = self.articles
        return env


IN_FORCE: Final = Candidate()


def candidate_load(path: Path) -> Candidate:
    """The candidate in the file at ``path``; raises ``CandidateError`` saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
        document = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except OSError as exc:
        raise CandidateError(f"{path}: cannot read it ({exc.strerror})") from exc
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise CandidateError(
            f"{path}: not valid {path.suffix.lstrip('.') or 'JSON'}: {exc}"
        ) from exc
    if not isinstance(document, dict):
        raise CandidateError(f"{path}: a candidate is an object")
    return candidate_parse(document, base=path.parent, default_name=path.stem)


def candidate_parse(document: dict[str, Any], *, base: Path, default_name: str) -> Candidate:
    """A candidate from its parsed file; relative paths are read from ``base``."""
    unknown = set(document) - KEYS
    if unknown:
        raise CandidateError(f"unknown keys {sorted(unknown)}; known: {sorted(KEYS)}")
    provider = str(document.get("provider", ""))
    if provider and provider not in PROVIDERS:
        raise CandidateError(f"provider must be one of {PROVIDERS}, not {provider!r}")
    api_key_env = str(document.get("api_key_env", ""))
    if api_key_env and api_key_env not in os.environ:
        raise CandidateError(f"api_key_env names {api_key_env}, which is not set")
    return Candidate(
        name=str(document.get("name") or default_name),
        provider=provider,
        models=_models(document),
        base_url=str(document.get("base_url", "")),
        api_key_env=api_key_env,
        router_model=_existing(document.get("router_model"), base, "router_model"),
        articles=_existing(document.get("articles"), base, "articles"),
        policy=_policy(document.get("policy", {})),
    )


def _models(document: dict[str, Any]) -> dict[str, str]:
    if "model" in document:
        return {role: str(document["model"]) for role in ROLES}
    models = document.get("models", {})
    if not isinstance(models, dict) or set(models) - set(ROLES):
        raise CandidateError(f"models is a table of {ROLES}")
    return {role: str(name) for role, name in models.items()}


def _existing(value: Any, base: Path, key: str) -> str:
    if not value:
        return ""
    path = (base / str(value)).resolve()
    if not path.is_file():
        raise CandidateError(f"{key}: no file {path}")
    return str(path)


def _policy(policy: Any) -> dict[str, str]:
    if not isinstance(policy, dict):
        raise CandidateError("policy is a table of settings")
    unknown = set(policy) - POLICY_SETTINGS
    if unknown:
        raise CandidateError(
            f"policy: {sorted(unknown)} cannot be changed; {sorted(POLICY_SETTINGS)} can"
        )
    return {name: str(value) for name, value in policy.items()}
