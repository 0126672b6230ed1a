"""``manage.py migrate`` as the schema owner: ``MIGRATION_DATABASE_URL`` when it is set.

The app's own role (``DATABASE_URL``) may not create or alter tables, so the migrations
connect as the owner; everything else in Django's command is unchanged.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands.migrate import Command as DjangoMigrate

from netshop.db_roles import migration_database


class Command(DjangoMigrate):
    def handle(self, *args: Any, **options: Any) -> None:
        with migration_database():
            super().handle(*args, **options)
