"""The moderator role: the "Moderators" group (made by a migration; remade here if missing)
and who is in it."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from django.db.models import Q

from ..audit import audit_write
from ..models import AuditEntry
from ..permissions import GROUP, MODERATOR_PERMISSIONS


def moderators_group() -> Group:
    """The group with exactly the moderation permissions (moderation/permissions.py)."""
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=GROUP)
        wanted = Q()
        for app_label, model, codename in MODERATOR_PERMISSIONS:
            wanted |= Q(
                content_type__app_label=app_label, content_type__model=model, codename=codename
            )
        group.permissions.set(Permission.objects.filter(wanted))
    return group


def moderator_grant(*, user: User, remove: bool = False) -> None:
    """Make ``user`` a moderator (staff, in the group), or take the role away."""
    with transaction.atomic():
        group = moderators_group()
        if remove:
            user.groups.remove(group)  # type: ignore[attr-defined]
            if not getattr(user, "is_superuser", False):
                user.is_staff = False  # type: ignore[attr-defined]
        else:
            user.groups.add(group)  # type: ignore[attr-defined]
            user.is_staff = True  # type: ignore[attr-defined]
        user.save(update_fields=["is_staff"])
        audit_write(
            actor=None,
            action=AuditEntry.Action.ROLE,
            target_user=user,
            reason="moderator role taken away" if remove else "made a moderator",
        )
