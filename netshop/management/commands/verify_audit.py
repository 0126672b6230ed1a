"""``manage.py verify_audit``: walk the audit chain and say whether it is intact.

Exit status 0 when it is, 1 (and the first broken entry on stderr) when it is not, so a cron
job or a monitoring probe can alert on it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from netshop.audit.verify import audit_verify


class Command(BaseCommand):
    help = (
        "Recompute every audit entry's hash in order and report the first entry that was "
        "edited, inserted or deleted. Prints the head (last seq and hash) to record elsewhere: "
        "entries removed from the end can only be noticed against such a record."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_verify()
        if not report.ok:
            self.stderr.write(str(report))
            raise SystemExit(1)
        self.stdout.write(str(report))
        if report.head_seq is not None:
            self.stdout.write(f"head: seq {report.head_seq} sha256 {report.head_hash}")
