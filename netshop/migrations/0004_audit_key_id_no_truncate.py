"""The keyed audit chain: a key id per entry, and TRUNCATE refused like UPDATE and DELETE.

Entries already in the table keep an empty key id: they are the plain SHA-256 prefix the
first keyed entry's MAC then covers (``netshop.audit.chain``). Adding the column with a
constant default rewrites no row, so the append-only trigger does not fire.
"""

from django.db import migrations, models

# The function of migration 0002 raises for any TG_OP; a statement trigger covers TRUNCATE.
NO_TRUNCATE = """
CREATE TRIGGER netshop_auditentry_no_truncate
    BEFORE TRUNCATE ON netshop_auditentry
    FOR EACH STATEMENT EXECUTE FUNCTION netshop_audit_append_only();
"""

DROP_NO_TRUNCATE = "DROP TRIGGER IF EXISTS netshop_auditentry_no_truncate ON netshop_auditentry;"


def _on_postgresql(sql):
    """A RunPython step that runs ``sql`` on PostgreSQL only (SQLite has no TRUNCATE)."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("netshop", "0003_apitoken_user")]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.RunPython(
            _on_postgresql(NO_TRUNCATE), _on_postgresql(DROP_NO_TRUNCATE), elidable=False
        ),
    ]
