"""``manage.py audit_anchor``: append a signed record of the audit head to the anchor sink.

The beat task ``netshop.tasks.audit_anchor`` does the same every minute; run this from cron
where no beat runs, or before a backup. Exit status 1 when the head is not signed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from netshop.audit.anchors import audit_anchor, default_sink


class Command(BaseCommand):
    help = "Anchor the audit chain's head (seq, MAC, count) outside the database."

    def handle(self, *args: Any, **options: Any) -> None:
        sink = default_sink()
        result = audit_anchor(sink=sink)
        if result.status == "refused":
            self.stderr.write(f"not anchored: {result.detail}; run manage.py verify_audit")
            raise SystemExit(1)
        if result.anchor is None:
            self.stdout.write(result.detail)
            return
        anchor = result.anchor
        said = "anchored" if result.status == "anchored" else "already anchored"
        self.stdout.write(f"{said}: seq {anchor.seq} ({anchor.count} entries) in {sink.name}")
