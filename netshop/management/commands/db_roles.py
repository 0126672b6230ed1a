"""``manage.py db_roles``: grant the app's database role least privilege, and check it.

Run as the schema owner (``MIGRATION_DATABASE_URL``) after every ``migrate``; the app's role
is the user of ``DATABASE_URL`` unless ``--app-role`` names it. Exit status 1 when the role
may do more than the app needs (superuser, owner, UPDATE/DELETE/TRUNCATE on the audit log,
DDL), so a deployment can refuse to go on.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from netshop.db_roles import db_roles_grant, db_roles_problems, migration_database, url_user


class Command(BaseCommand):
    help = "Grant the app's PostgreSQL role what it needs and nothing more, then check it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--app-role", help="default: the user of DATABASE_URL")
        parser.add_argument("--check", action="store_true", help="check only, grant nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        role = options["app_role"] or url_user(settings.DATABASE_URL)
        if not role:
            raise CommandError("no app role: set DATABASE_URL (the app's role) or --app-role")
        with migration_database():
            if not options["check"]:
                db_roles_grant(role=role)
            problems = db_roles_problems(role=role)
        if problems:
            self.stderr.write(f"app role {role!r} is not least privilege: " + "; ".join(problems))
            raise SystemExit(1)
        self.stdout.write(
            f"app role {role!r}: least privilege (no superuser, owns nothing, no DDL; "
            "SELECT and INSERT only on the audit log)"
        )
