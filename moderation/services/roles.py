"""The moderator roles: four groups (made by a migration; remade here if missing), each with
exactly its permissions (moderation/permissions.py), and who holds which."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from django.db.models import Q

from ..audit import audit_write
from ..models import AuditEntry
from ..permissions import GAME, GROUPS, ROLE_PERMISSIONS, ROLES, require
from .errors import ModerationRefused


def role_group(role: str) -> Group:
    """The group of ``role`` with exactly its permissions (set afresh each call)."""
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=GROUPS[role])
        wanted = Q()
        for app_label, model, codename in ROLE_PERMISSIONS[role]:
            wanted |= Q(
                content_type__app_label=app_label, content_type__model=model, codename=codename
            )
        group.permissions.set(Permission.objects.filter(wanted))
    return group


def moderators_group() -> Group:
    """The Game moderators' group (the role the single "Moderators" group of before
    matched most closely among the day-to-day ones)."""
    return role_group(GAME)


def moderator_grant(
    *, user: User, role: str = GAME, remove: bool = False, actor: User | None = None
) -> None:
    """Give ``user`` the moderator ``role`` (staff, in that one group: a role replaces the
    one they held), or take every role away (``remove``). ``actor`` None is the site's
    operator at the command line (manage.py moderator_add); a moderator needs the
    Administrators' power to give or take roles."""
    if role not in ROLES:
        raise ModerationRefused(f"the role is one of {', '.join(ROLES)}")
    if actor is not None:
        require(actor, "roles_member", "give or take moderator roles")
        if actor.pk == user.pk:
            raise ModerationRefused("another administrator changes your own role")
    with transaction.atomic():
        groups = [role_group(r) for r in ROLES]
        user.groups.remove(*groups)
        if remove:
            if not getattr(user, "is_superuser", False):
                user.is_staff = False
        else:
            user.groups.add(groups[ROLES.index(role)])
            user.is_staff = True
        user.save(update_fields=["is_staff"])
        # Django caches a user's permissions on the object: the next check reads them again.
        for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
            user.__dict__.pop(cache, None)
        audit_write(
            actor=actor,
            action=AuditEntry.Action.ROLE,
            target_user=user,
            reason="moderator role taken away" if remove else f"made one of the {GROUPS[role]}",
            role=None if remove else role,
        )
