"""The models and the migrations agree."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_missing_migrations():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:  # raised by --check when a model change has no migration
        pytest.fail(f"models changed without a migration:\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()
