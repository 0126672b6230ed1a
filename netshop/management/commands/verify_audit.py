"""``manage.py verify_audit``: check the audit chain's MACs, links and anchors.

Exit status 0 when it is intact, 1 (and what was found, with its seq, on stderr) when it is
not, so a cron job or a monitoring probe can alert on it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from netshop.audit.anchors import default_sink
from netshop.audit.verify import audit_verify


class Command(BaseCommand):
    help = (
        "Check every audit entry's MAC and link in order, then the table against every anchor "
        "(NETSHOP_AUDIT_ANCHOR_PATH). Names the first problem and its seq: edited, inserted, "
        "deleted, truncated, tail missing or forged."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        sink = default_sink()
        report = audit_verify(sink=sink)
        if not report.ok:
            self.stderr.write(str(report))
            raise SystemExit(1)
        self.stdout.write(str(report))
        if report.head_seq is not None:
            self.stdout.write(f"head: seq {report.head_seq} mac {report.head_hash}")
        if report.anchors == 0:
            self.stdout.write(
                f"warning: no anchors in {sink.name}: removing the newest entries, or all of "
                "them, cannot be noticed (run manage.py audit_anchor, or celery beat)"
            )
