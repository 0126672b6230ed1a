"""``manage.py db_roles`` and ``migrate`` as the owner: the app's role gets least privilege."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from netshop.db_roles import migration_database, url_user


def _db_roles(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("db_roles", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_db_roles_grants_the_app_role_and_says_it_is_least_privilege(app_role: str) -> None:
    assert _db_roles("--app-role", app_role) == (
        0,
        f"app role '{app_role}': least privilege (no superuser, owns nothing, no DDL; "
        "SELECT and INSERT only on the audit log)\n",
        "",
    )


@pytest.mark.django_db
def test_db_roles_refuses_a_superuser_as_the_app_role() -> None:
    code, out, err = _db_roles("--check", "--app-role", "postgres")

    assert (code, out) == (1, "")
    assert err.startswith("app role 'postgres' is not least privilege: is a superuser; ")
    assert "owns tables in the schema" in err
    assert "may TRUNCATE the audit log" in err


@pytest.mark.django_db
def test_db_roles_names_a_missing_role() -> None:
    code, _, err = _db_roles("--check", "--app-role", "netshop_no_such_role")

    assert (code, err) == (
        1,
        "app role 'netshop_no_such_role' is not least privilege: "
        "role 'netshop_no_such_role' does not exist\n",
    )


@pytest.mark.django_db(transaction=True)
def test_migrations_connect_as_migration_database_url_and_the_app_connection_comes_back(
    app_role: str, settings: object
) -> None:
    db = connection.settings_dict
    owner = f"postgres://{app_role}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    settings.MIGRATION_DATABASE_URL = owner  # type: ignore[attr-defined]

    with migration_database(), connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        inside = cursor.fetchone()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        after = cursor.fetchone()

    assert (inside, after) == ((app_role,), ("postgres",))


def test_the_app_role_is_the_user_of_database_url() -> None:
    assert url_user("postgres://netshop_app:s%40cret@db.internal:5432/netshop") == "netshop_app"
