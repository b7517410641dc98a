"""What the "Moderators" group may do: exactly these permissions (its data migration sets
them; a test checks the group holds no more and no less)."""

from __future__ import annotations

MODERATOR_PERMISSIONS = (
    # Users: see them, suspend, ban, mute, lift.
    ("moderation", "member", "view_member"),
    ("moderation", "member", "suspend_member"),
    ("moderation", "member", "ban_member"),
    ("moderation", "member", "mute_member"),
    ("moderation", "member", "lift_member"),
    ("moderation", "restriction", "view_restriction"),
    # Tables: see them, abort, reseat, read the full state and replay.
    ("moderation", "tablecase", "view_tablecase"),
    ("moderation", "tablecase", "abort_tablecase"),
    ("moderation", "tablecase", "reseat_tablecase"),
    ("moderation", "tablecase", "inspect_tablecase"),
    # Chat: read, hide.
    ("chat", "chatmessage", "view_chatmessage"),
    ("chat", "chatmessage", "hide_chatmessage"),
    # The report queue: read, work (assign, resolve).
    ("moderation", "report", "view_report"),
    ("moderation", "report", "change_report"),
    # The audit log, read-only.
    ("moderation", "auditentry", "view_auditentry"),
)

GROUP = "Moderators"
