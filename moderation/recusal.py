"""Recusal: whom a moderator may not act on. Themselves (a report about them, an appeal of
their own decision), a member they blocked (a grudge) and a member they befriended (a favour):
another moderator handles those cases. Blocks and friendships are the ``social`` app's."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from social.selectors import are_friends, has_blocked


def recusal_reason(actor: Any, member: Any) -> str | None:
    """Why ``actor`` must leave ``member``'s case to another moderator, or None."""
    if member is None or actor is None:
        return None
    if actor.pk == member.pk:
        return "the case is about you: another moderator handles it"
    if has_blocked(actor, member):
        return "you blocked this member: another moderator handles their case"
    if are_friends(actor, member):
        return "you are friends with this member: another moderator handles their case"
    return None


def require_not_recused(actor: Any, member: Any) -> None:
    reason = recusal_reason(actor, member)
    if reason is not None:
        raise PermissionDenied(reason)
