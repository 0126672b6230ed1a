"""The same suite against the offline model and, as a candidate, against an OpenAI-compatible
server (the local fake, answering with the offline model's decisions over the real wire): both
runs are stored with what they ran against and compared case by case."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from agents.simulation.models import RunStatus, SimulationRun
from agents.simulation.results import runs_compare
from tests.support.fake_openai import FakeOpenAI
from tests.support.offline_proxy import offline_answer

CASES = [
    {
        "id": "en-payment-methods",
        "category": "faq",
        "customer": "C0002",
        "lang": "en",
        "turns": [
            {
                "text": "Which payment methods can I use at checkout?",
                "expected_status": ["resolved"],
                "expected_action": None,
            }
        ],
    },
    {
        "id": "ja-shipping-fee",
        "category": "faq",
        "customer": "C0001",
        "lang": "ja",
        "turns": [
            {
                "text": "送料は注文金額がいくら以上で無料になりますか？",
                "expected_status": ["resolved"],
                "expected_action": None,
            }
        ],
    },
]


@pytest.mark.django_db
def test_an_openai_candidate_and_the_offline_model_side_by_side(
    tmp_path: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_openai.responder = offline_answer
    monkeypatch.setenv("CANDIDATE_KEY", "test-key")
    suite = tmp_path / "faq.jsonl"
    suite.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in CASES), "utf-8")
    candidate = tmp_path / "gpt.toml"
    candidate.write_text(
        f'name = "gpt-4.1-mini"\nprovider = "openai"\nmodel = "gpt-4.1-mini"\n'
        f'base_url = "{fake_openai.base_url}"\napi_key_env = "CANDIDATE_KEY"\n',
        encoding="utf-8",
    )

    call_command("simulate", str(suite), stdout=StringIO())
    call_command("simulate", str(suite), "--candidate", str(candidate), stdout=StringIO())

    offline, openai = SimulationRun.objects.order_by("id")
    assert (offline.status, openai.status) == (RunStatus.PASSED, RunStatus.PASSED)
    assert fake_openai.chat_requests  # the candidate's run went over the wire
    assert openai.versions["models"] == dict.fromkeys(
        ("supervisor", "specialist", "writer"), "gpt-4.1-mini"
    )
    compared = runs_compare(offline, openai)
    assert compared["versions"]["provider"] == ("offline", "openai")
    assert compared["versions"]["base_url"] == ("", fake_openai.base_url)
    assert [(c.case_id, c.before, c.after) for c in compared["cases"]] == [
        ("en-payment-methods", True, True),
        ("ja-shipping-fee", True, True),
    ]
    assert openai.candidate == {
        "name": "gpt-4.1-mini",
        "provider": "openai",
        "models": dict.fromkeys(("supervisor", "specialist", "writer"), "gpt-4.1-mini"),
        "base_url": fake_openai.base_url,
        "api_key_env": "CANDIDATE_KEY",
    }
