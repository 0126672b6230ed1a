"""Fixtures shared across the tree: the real ``ChatOpenAI`` against ``FakeOpenAI``, and the
real Redis channel layer.

Registered from ``tests/conftest.py`` with ``pytest_plugins = ["tests.support.conftest_plugin"]``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_django import Settings

from tests.support.channel_layers import use_redis_channel_layer
from tests.support.fake_openai import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A fresh server on an ephemeral port, stopped (delayed answers dropped) after the test."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def openai_settings(fake_openai: FakeOpenAI, settings: Settings) -> Settings:
    """Django settings that make ``agents.providers.chat_model`` talk to ``fake_openai``."""
    settings.NETSHOP_MODEL_PROVIDER = "openai"
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = fake_openai.base_url
    settings.NETSHOP_MODEL_TIMEOUT_S = 1.0
    return settings


@pytest.fixture
def redis_channel_layer(settings: Settings) -> None:
    """Live events through the real Redis channel layer, under a prefix of this test's own."""
    use_redis_channel_layer(settings)
