"""Operators no longer browse the integrations' books in the admin (issue 26, section 5).

``ensure_role_groups`` only ever added view permissions, so an operator group made before keeps
the ones its role lost: take them away here. The codenames are written out, not imported, so
this step means the same whatever ``netshop.roles`` says later. On a fresh database the
permissions do not exist yet (Django creates them after migrating) and nothing is removed.
"""

from django.db import migrations

TAKEN_FROM_OPERATORS = (
    "view_gatewaytransaction",
    "view_carrierbooking",
    "view_webhookdelivery",
    "view_webhooksubjectstatus",
)


def _views(apps):
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.filter(
        content_type__app_label="netshop", codename__in=TAKEN_FROM_OPERATORS
    )


def take_away(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="operator"):
        group.permissions.remove(*_views(apps))


def give_back(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="operator"):
        group.permissions.add(*_views(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("netshop", "0012_webhook_feedback_event"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(take_away, give_back)]
