"""The four moderator roles (moderation/permissions.py), each group with exactly its
permissions; the members of the single "Moderators" group of before become Senior moderators
(the powers they held: bans, suspensions of any length, lifting any restriction: nobody loses
a power overnight; an administrator narrows roles down afterwards, see docs/MODERATION.md);
the reports of before get their room; a starter set of canned reasons."""

from django.db import migrations

# A copy (a migration must not change when the module does): permissions.ROLE_PERMISSIONS.
CHAT = (
    ("moderation", "member", "view_member"),
    ("moderation", "member", "mute_member"),
    ("moderation", "restriction", "view_restriction"),
    ("chat", "chatmessage", "view_chatmessage"),
    ("chat", "chatmessage", "hide_chatmessage"),
    ("moderation", "report", "view_report"),
    ("moderation", "report", "handle_chat_report"),
    ("moderation", "auditentry", "view_auditentry"),
    ("moderation", "membernote", "view_membernote"),
    ("moderation", "membernote", "add_membernote"),
    ("moderation", "cannedreason", "view_cannedreason"),
    ("moderation", "member", "view_hidden_stats_member"),
)
GAME = CHAT + (
    ("moderation", "member", "suspend_member"),
    ("moderation", "report", "handle_play_report"),
    ("moderation", "tablecase", "view_tablecase"),
    ("moderation", "tablecase", "abort_tablecase"),
    ("moderation", "tablecase", "reseat_tablecase"),
    ("moderation", "tablecase", "inspect_tablecase"),
)
SENIOR = GAME + (
    ("moderation", "member", "ban_member"),
    ("moderation", "member", "restrict_long_member"),
    ("moderation", "member", "lift_member"),
    ("moderation", "appeal", "view_appeal"),
    ("moderation", "appeal", "decide_appeal"),
    ("moderation", "membernote", "delete_membernote"),
    ("moderation", "cannedreason", "add_cannedreason"),
    ("moderation", "cannedreason", "change_cannedreason"),
    ("moderation", "cannedreason", "delete_cannedreason"),
)
ADMIN = SENIOR + (("moderation", "member", "roles_member"),)
GROUPS = {
    "Chat moderators": CHAT,
    "Game moderators": GAME,
    "Senior moderators": SENIOR,
    "Administrators": ADMIN,
}

PRESETS = [
    (
        "Insults in chat",
        "mute",
        "You were muted in table chat for insulting other players. Everyone at a table "
        "deserves a friendly game.",
        2,
    ),
    (
        "Spam in chat",
        "mute",
        "You were muted in table chat for flooding it with messages or links.",
        1,
    ),
    (
        "Stalling or leaving games",
        "suspend",
        "Your account was suspended for letting your clock run out or leaving games "
        "on purpose, which spoils them for the other players.",
        24,
    ),
    (
        "Cheating or collusion",
        "suspend",
        "Your account was suspended for cheating or playing together with another player "
        "against the table.",
        72,
    ),
    (
        "Repeated serious abuse",
        "ban",
        "Your account was banned after repeated serious abuse of other players.",
        None,
    ),
]


def forwards(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for label in ("moderation", "chat"):
        config = apps.get_app_config(label)
        # Permissions are made after all migrations (post_migrate); make them now so the
        # groups can hold them. Put back what was there (a test runs this on the live apps).
        before = getattr(config, "models_module", None)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = before
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    made = {}
    for name, perms in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.set(
            [
                Permission.objects.get(
                    content_type__app_label=app, content_type__model=model, codename=codename
                )
                for app, model, codename in perms
            ]
        )
        made[name] = group
    old = Group.objects.filter(name="Moderators").first()
    if old is not None:
        for user in old.user_set.all():
            user.groups.add(made["Senior moderators"])
        old.delete()
    Report = apps.get_model("moderation", "Report")
    Report.objects.exclude(message=None).update(room="chat")
    Report.objects.filter(message=None, reason__in=["cheating", "stalling"]).update(room="play")
    CannedReason = apps.get_model("moderation", "CannedReason")
    for title, kind, message, hours in PRESETS:
        CannedReason.objects.get_or_create(
            title=title, defaults={"kind": kind, "message": message, "suggested_hours": hours}
        )


def backwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    old, _ = Group.objects.get_or_create(name="Moderators")
    for group in Group.objects.filter(name__in=list(GROUPS)):
        for user in group.user_set.all():
            user.groups.add(old)
        group.delete()


class Migration(migrations.Migration):
    dependencies = [("moderation", "0006_team")]

    operations = [migrations.RunPython(forwards, backwards)]
