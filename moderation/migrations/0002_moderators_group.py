"""The "Moderators" group with exactly the moderation permissions (moderation/permissions.py)."""

from django.db import migrations

PERMISSIONS = (
    ("moderation", "member", "view_member"),
    ("moderation", "member", "suspend_member"),
    ("moderation", "member", "ban_member"),
    ("moderation", "member", "mute_member"),
    ("moderation", "member", "lift_member"),
    ("moderation", "restriction", "view_restriction"),
    ("moderation", "tablecase", "view_tablecase"),
    ("moderation", "tablecase", "abort_tablecase"),
    ("moderation", "tablecase", "reseat_tablecase"),
    ("moderation", "tablecase", "inspect_tablecase"),
    ("chat", "chatmessage", "view_chatmessage"),
    ("chat", "chatmessage", "hide_chatmessage"),
    ("moderation", "report", "view_report"),
    ("moderation", "report", "change_report"),
    ("moderation", "auditentry", "view_auditentry"),
)


def create_group(apps, schema_editor):
    # Permissions are normally made after all migrations (post_migrate); make them now so the
    # group can hold them on a fresh database.
    from django.contrib.auth.management import create_permissions

    for label in ("moderation", "chat"):
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    perms = []
    for app_label, model, codename in PERMISSIONS:
        perms.append(
            Permission.objects.get(
                content_type__app_label=app_label, content_type__model=model, codename=codename
            )
        )
    group.permissions.set(perms)


def drop_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("chat", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, drop_group)]
