"""Running one inquiry outside a worker, for callers outside the app: the entry point the
evaluation harness (``shared/eval``) and ``manage.py run_inquiry`` start a conversation and
drive its run through, whatever the layers inside are called."""

from agents.support.conversations.intake import inquiry_create
from agents.team.runs.driver import inquiry_run

__all__ = ["inquiry_create", "inquiry_run"]
