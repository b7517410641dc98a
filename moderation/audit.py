"""Writing the audit log: every moderation service calls this inside its own transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.models import Table

from .models import AuditEntry


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
