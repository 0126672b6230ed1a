"""The embedded default (nothing configured) runs the same approval loop end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


@pytest.mark.slow
def test_the_embedded_shape_waits_approves_and_refunds_once(tmp_path: Path) -> None:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")
    }
    env |= {"DEBUG": "1", "NETSHOP_VAR_DIR": str(tmp_path), "NETSHOP_RETRY_BACKOFF_S": "0"}

    finished = subprocess.run(
        [sys.executable, "-m", "tests.support.embedded_flow"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )

    assert finished.returncode == 0, finished.stderr[-3000:]
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    assert result["engine"] == "django.db.backends.sqlite3"
    assert result["channel_layer"] == "channels.layers.InMemoryChannelLayer"
    assert (result["waited"], result["resolved"], result["refunds"]) == (True, True, 1)
    assert "12,800" in result["reply"]
