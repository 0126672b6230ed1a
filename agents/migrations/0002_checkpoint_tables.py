"""Create LangGraph's checkpoint tables with the schema, not lazily on a worker's first run.

On a fresh database two workers' first runs would otherwise race in ``PostgresSaver.setup()``.
The SQLite saver (embedded shape) keeps its own file and sets itself up.
"""

from django.db import migrations


def create_checkpoint_tables(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from langgraph.checkpoint.postgres import PostgresSaver

    from agents.team.runs.checkpointer import postgres_conninfo

    with PostgresSaver.from_conn_string(postgres_conninfo()) as saver:
        saver.setup()


class Migration(migrations.Migration):
    dependencies = [("agents", "0001_initial")]

    operations = [migrations.RunPython(create_checkpoint_tables, migrations.RunPython.noop)]
