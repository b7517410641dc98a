"""Writing the audit log: every moderation service calls this inside its own transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.models import Table

from .models import AuditEntry


def audit_chat_hidden(*, moderator: User, message: Any, reason: str, hidden: bool) -> None:
    """The audit row of a chat message a moderator hid or showed again (called by chat inside
    its transaction: chat/hooks.py)."""
    audit_write(
        actor=moderator,
        action=AuditEntry.Action.HIDE_MESSAGE if hidden else AuditEntry.Action.UNHIDE_MESSAGE,
        target_user=message.author,
        table=message.table,
        reason=reason,
        message=message.pk,
        text=message.text,
    )


def audit_write(
    *,
    actor: User | None,
    action: str,
    target_user: User | None = None,
    table: Table | None = None,
    reason: str = "",
    **details: Any,
) -> AuditEntry:
    """One row of the audit log (the caller is inside the transaction of the change)."""
    return AuditEntry.objects.create(
        actor=actor,
        action=action,
        target_user=target_user,
        table=table,
        reason=reason,
        details=details,
    )
