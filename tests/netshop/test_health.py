"""/healthz reports the database, the broker and the channel layer."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_everything_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "shape": "production",
        "checks": {"database": "ok", "broker": "ok", "channel_layer": "ok"},
    }


def test_healthz_names_the_broker_when_it_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "degraded"
    assert body["checks"]["broker"].startswith("error: ")
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"
