"""``manage.py create_api_token NAME [--user USERNAME] [--callback-url URL]``: issue (or
revoke) an API token, or rotate a storefront token's webhook secret.

Without ``--user`` the token is a storefront's; with it, the staff member's own. With
``--callback-url`` the storefront receives signed webhooks there, and the signing secret is
printed once after the key.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import IntegrityError, transaction
from django.utils import timezone

from netshop.models import ApiToken
from netshop.roles import Role, user_has_role
from netshop.webhooks.receivers import new_signing_secret, validate_callback_url
from netshop.webhooks.services import webhook_secret_rotate

PREFIX_LENGTH = 8


class Command(BaseCommand):
    help = (
        "Create a named API token and print its key once: only a digest is stored, so the key "
        "cannot be shown again. Without --user it is a storefront's token; with --user, a staff "
        "member's own, acting as them. With --callback-url the storefront gets signed webhooks "
        "there and the signing secret is printed once, on the line after the key. With --revoke, "
        "revoke the named token instead; with --rotate-webhook-secret, print a new secret for it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument(
            "--user",
            metavar="USERNAME",
            help="Issue the token to this operator or manager (it acts with their role).",
        )
        parser.add_argument(
            "--callback-url",
            metavar="URL",
            help="The storefront's webhook receiver (http or https).",
        )
        parser.add_argument("--revoke", action="store_true", help="Revoke the named token.")
        parser.add_argument(
            "--rotate-webhook-secret",
            action="store_true",
            help="Replace the named storefront token's webhook secret and print the new one.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["revoke"]:
            self._revoke(options["name"])
        elif options["rotate_webhook_secret"]:
            self._rotate(options["name"])
        else:
            callback_url = self._callback_url(options["callback_url"], options["user"])
            owner = self._staff_member(options["user"]) if options["user"] else None
            self._create(options["name"], owner, callback_url)

    def _callback_url(self, url: str | None, username: str | None) -> str:
        if not url:
            return ""
        if username:
            raise CommandError("Webhooks are a storefront's: --callback-url goes without --user.")
        try:
            validate_callback_url(url)
        except ValidationError as exc:
            raise CommandError(f"Invalid --callback-url {url!r}: {' '.join(exc.messages)}") from exc
        return url

    def _staff_member(self, username: str) -> User:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user named {username!r}.")
        if not user_has_role(user, Role.OPERATOR):
            raise CommandError(
                f"{username!r} is not an active operator or manager; "
                f"give them a role first (manage.py create_staff {username} --role operator)."
            )
        return user

    def _create(self, name: str, owner: User | None, callback_url: str) -> None:
        if ApiToken.objects.filter(name=name).exists():
            raise CommandError(f"An API token named {name!r} already exists; choose another name.")
        key = secrets.token_urlsafe(32)
        try:
            with transaction.atomic():
                token = ApiToken.objects.create(
                    name=name,
                    key_digest=ApiToken.digest(key),
                    prefix=key[:PREFIX_LENGTH],
                    user=owner,
                    callback_url=callback_url,
                    webhook_secret=new_signing_secret() if callback_url else "",
                )
        except IntegrityError as exc:  # created concurrently under the same name
            raise CommandError(f"An API token named {name!r} already exists.") from exc
        holder = f"staff member {owner.username!r}" if owner else "the storefront"
        # The key alone goes to stdout so scripts can capture it; the advice goes to stderr.
        self.stderr.write(
            f"API token {name!r} for {holder} created. Store the key now; it is not shown again:"
        )
        self.stdout.write(key)
        self.stderr.write("Send it as: Authorization: Bearer <key>")
        if callback_url:
            self.stdout.write(token.webhook_secret)
            self.stderr.write(
                f"Webhooks go to {callback_url}, signed with the secret on the line after the key."
            )

    def _rotate(self, name: str) -> None:
        token = ApiToken.objects.filter(name=name, user__isnull=True).first()
        if token is None:
            raise CommandError(f"No storefront API token named {name!r}.")
        secret = webhook_secret_rotate(token=token)
        self.stderr.write(f"New webhook secret of {name!r}; the old one no longer signs:")
        self.stdout.write(secret)

    def _revoke(self, name: str) -> None:
        token = ApiToken.objects.filter(name=name).first()
        if token is None:
            raise CommandError(f"No API token named {name!r}.")
        if token.revoked_at is not None:
            self.stdout.write(
                f"API token {name!r} was already revoked at {token.revoked_at:%Y-%m-%d %H:%M %Z}."
            )
            return
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        self.stdout.write(self.style.SUCCESS(f"Revoked API token {name!r} ({token.prefix}…)."))
