"""An entry can only be appended at the head of the audit chain.

The app's role may INSERT into the log (it writes it), so without this one row could jam it:
a row that takes the next entry's ``prev_hash`` (unique) before the writer does, or a ``seq``
far above the sequence's, which every later append would then have to follow. The trigger
lets a row in only where the writer would put it: after the current head, naming the head's
MAC, with a ``seq`` the sequence has handed out. A forged head can still be written there
(the writer and ``verify_audit`` name it); it can no longer stop the writing.
"""

from django.db import migrations

GENESIS = "0" * 64

APPENDS_AT_THE_HEAD = f"""
CREATE OR REPLACE FUNCTION netshop_audit_appends_at_the_head() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    head_seq bigint;
    head_hash text;
    handed_out bigint;
BEGIN
    SELECT seq, hash INTO head_seq, head_hash
        FROM netshop_auditentry ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        head_seq := 0;
        head_hash := '{GENESIS}';
    END IF;
    EXECUTE format('SELECT last_value FROM %s',
                   pg_get_serial_sequence('netshop_auditentry', 'seq')) INTO handed_out;
    IF NEW.seq <= head_seq OR NEW.prev_hash <> head_hash OR NEW.seq > handed_out THEN
        RAISE EXCEPTION 'append-only: an entry must follow the head (seq %), name its MAC and '
                        'take its seq from the sequence', head_seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER netshop_auditentry_appends_at_the_head
    BEFORE INSERT ON netshop_auditentry
    FOR EACH ROW EXECUTE FUNCTION netshop_audit_appends_at_the_head();
"""

DROP_APPENDS_AT_THE_HEAD = """
DROP TRIGGER IF EXISTS netshop_auditentry_appends_at_the_head ON netshop_auditentry;
DROP FUNCTION IF EXISTS netshop_audit_appends_at_the_head();
"""


def _on_postgresql(sql):
    """A RunPython step that runs ``sql`` on PostgreSQL only (SQLite has one writer at a time
    and no app role)."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("netshop", "0005_coupon_cause")]

    operations = [
        migrations.RunPython(
            _on_postgresql(APPENDS_AT_THE_HEAD),
            _on_postgresql(DROP_APPENDS_AT_THE_HEAD),
            elidable=False,
        ),
    ]
