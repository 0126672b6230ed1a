"""A candidate file names what to try; it is applied as the sandbox's environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.simulation.candidates import IN_FORCE, CandidateError, candidate_load


def test_a_toml_candidate_becomes_the_sandboxs_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANDIDATE_KEY", "sk-candidate")
    (tmp_path / "router.json.gz").write_bytes(b"")
    path = tmp_path / "gpt.toml"
    path.write_text(
        'provider = "openai"\nmodel = "gpt-4.1-mini"\nbase_url = "http://127.0.0.1:9/v1"\n'
        'api_key_env = "CANDIDATE_KEY"\nrouter_model = "router.json.gz"\n'
        "[policy]\nNETSHOP_COUPON_CAP_YEN = 500\n",
        encoding="utf-8",
    )

    candidate = candidate_load(path)

    assert candidate.name == "gpt"
    assert candidate.environment() == {
        "NETSHOP_COUPON_CAP_YEN": "500",
        "NETSHOP_MODEL_PROVIDER": "openai",
        "NETSHOP_MODEL_SUPERVISOR": "gpt-4.1-mini",
        "NETSHOP_MODEL_SPECIALIST": "gpt-4.1-mini",
        "NETSHOP_MODEL_WRITER": "gpt-4.1-mini",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OPENAI_API_KEY": "sk-candidate",
        "NETSHOP_ROUTER_MODEL": str(tmp_path / "router.json.gz"),
    }
    assert "sk-candidate" not in str(candidate.as_json())


def test_a_json_candidate_with_models_per_role(tmp_path: Path) -> None:
    path = tmp_path / "mixed.json"
    path.write_text('{"name": "mixed", "models": {"writer": "gpt-4.1"}}', encoding="utf-8")

    assert candidate_load(path).environment() == {"NETSHOP_MODEL_WRITER": "gpt-4.1"}


def test_the_configuration_in_force_changes_nothing() -> None:
    assert IN_FORCE.environment() == {}
    assert IN_FORCE.as_json() == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"provider": "anthropic"}', "provider must be one of"),
        ('{"modle": "x"}', "unknown keys \\['modle'\\]"),
        ('{"policy": {"SECRET_KEY": "x"}}', "cannot be changed"),
        ('{"router_model": "missing.json.gz"}', "router_model: no file"),
        ('{"api_key_env": "NO_SUCH_VARIABLE_FOR_TESTS"}', "which is not set"),
        ("{not json", "not valid json"),
    ],
)
def test_a_bad_candidate_is_refused_saying_why(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "candidate.json"
    path.write_text(text, encoding="utf-8")

    with pytest.raises(CandidateError, match=message):
        candidate_load(path)
