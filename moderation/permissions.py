"""The moderators' roles: four groups, each with exactly its permissions (the data migration
0006 makes them; a test checks each group holds no more and no less), and the powers a
service asks of its actor. docs/MODERATION.md has the same table in words.

Each role holds every power of the one before it, and more:

- Chat moderators: hide messages, mute in chat up to 24 hours, handle chat reports.
- Game moderators: also inspect games, abort tables, reseat players, suspend (or mute) up to
  7 days, handle the play room's and the other reports.
- Senior moderators: also ban, suspend or mute for any length, decide appeals, lift a
  restriction another moderator imposed, delete moderator notes, edit the canned reasons.
- Administrators: also give and take the roles.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import PermissionDenied

CHAT, GAME, SENIOR, ADMIN = "chat", "game", "senior", "admin"
ROLES = (CHAT, GAME, SENIOR, ADMIN)

# Pinned: the groups' names (manage.py moderator_add --role picks one by its key).
GROUPS = {
    CHAT: "Chat moderators",
    GAME: "Game moderators",
    SENIOR: "Senior moderators",
    ADMIN: "Administrators",
}

# The single group of before (migration 0002); migration 0006 moves its members to the
# Senior moderators (the powers they held: bans, any length, lifting) and deletes it.
OLD_GROUP = "Moderators"

Perm = tuple[str, str, str]

_CHAT: tuple[Perm, ...] = (
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
_GAME: tuple[Perm, ...] = (
    ("moderation", "member", "suspend_member"),
    ("moderation", "report", "handle_play_report"),
    ("moderation", "tablecase", "view_tablecase"),
    ("moderation", "tablecase", "abort_tablecase"),
    ("moderation", "tablecase", "reseat_tablecase"),
    ("moderation", "tablecase", "inspect_tablecase"),
)
_SENIOR: tuple[Perm, ...] = (
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
_ADMIN: tuple[Perm, ...] = (("moderation", "member", "roles_member"),)

ROLE_PERMISSIONS: dict[str, tuple[Perm, ...]] = {
    CHAT: _CHAT,
    GAME: _CHAT + _GAME,
    SENIOR: _CHAT + _GAME + _SENIOR,
    ADMIN: _CHAT + _GAME + _SENIOR + _ADMIN,
}

# The permissions of every role, for code that asks "is this user a moderator at all".
ANY_MODERATOR = "moderation.view_member"

CHAT_MUTE_LIMIT = timedelta(hours=24)
GAME_LIMIT = timedelta(days=7)


def holds(actor: Any, codename: str, app: str = "moderation") -> bool:
    return bool(actor is not None and actor.is_active and actor.has_perm(f"{app}.{codename}"))


def require(actor: Any, codename: str, what: str, app: str = "moderation") -> None:
    """Refuse ``actor`` (PermissionDenied) unless their role holds ``app.codename``; ``what``
    says what they tried, for the message the admin shows."""
    if not holds(actor, codename, app):
        raise PermissionDenied(f"your moderator role may not {what}")


def longest(actor: Any, kind: str) -> timedelta | None:
    """The longest suspension or mute (``kind``) the actor's role may impose; None: any
    length; timedelta(0): none at all."""
    if holds(actor, "restrict_long_member"):
        return None
    if holds(actor, "suspend_member"):
        return GAME_LIMIT
    if kind == "mute" and holds(actor, "mute_member"):
        return CHAT_MUTE_LIMIT
    return timedelta(0)


def require_length(actor: Any, kind: str, duration: timedelta) -> None:
    limit = longest(actor, kind)
    if limit is None:
        return
    verb = "mute" if kind == "mute" else "suspend"
    if limit <= timedelta(0):
        raise PermissionDenied(f"your moderator role may not {verb} members")
    if duration > limit:
        raise PermissionDenied(f"your moderator role may {verb} for at most {_words(limit)}")


def _words(limit: timedelta) -> str:
    if limit % timedelta(days=1) or limit < timedelta(days=2):
        return f"{int(limit.total_seconds() // 3600)} hours"
    return f"{limit.days} days"


def role_of(user: Any) -> str | None:
    """The highest role ``user`` holds by their groups, or None."""
    names = set(user.groups.values_list("name", flat=True)) if user.pk else set()
    held = [role for role in ROLES if GROUPS[role] in names]
    return held[-1] if held else None
