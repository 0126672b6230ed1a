"""``manage.py create_staff USERNAME --role operator|manager``: create or update a staff login."""

from __future__ import annotations

import getpass
import os
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from netshop.roles import Role, role_assign

PASSWORD_ENV = "NETSHOP_STAFF_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create a support staff login with a role, or change an existing login's role. The "
        f"password comes from --password, then {PASSWORD_ENV}, then a prompt; an existing "
        "user keeps their password when none is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=[role.value for role in Role])
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--password",
            help=f"Visible in the process list and shell history; prefer {PASSWORD_ENV}.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        password = self._password(options, required=user is None)
        if password is not None:
            try:
                validate_password(password, user=user)
            except ValidationError as exc:
                raise CommandError("; ".join(exc.messages)) from exc
        with transaction.atomic():
            created = user is None
            if user is None:
                user = user_model(username=username)
            if options["email"]:
                user.email = options["email"]
            if password is not None:
                user.set_password(password)
            user.save()
            role_assign(user=user, role=options["role"])
        verb = "Created" if created else "Updated"
        self.stdout.write(
            self.style.SUCCESS(f"{verb} staff user {username} (role {options['role']})")
        )

    def _password(self, options: dict[str, Any], *, required: bool) -> str | None:
        password = options["password"] or os.environ.get(PASSWORD_ENV)
        if password:
            return password
        if not sys.stdin.isatty():
            if required:
                raise CommandError(
                    f"A new user needs a password: pass --password or set {PASSWORD_ENV}."
                )
            return None
        if not required:
            return None
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("The passwords do not match.")
        return first
