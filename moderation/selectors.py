"""Reading restrictions: is a user muted, suspended or banned right now."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import Restriction

ACCOUNT_KINDS = (Restriction.Kind.SUSPEND, Restriction.Kind.BAN)


def active_restrictions(
    user: User, kinds: Iterable[str], now: datetime | None = None
) -> QuerySet[Restriction]:
    now = now or timezone.now()
    return Restriction.objects.filter(
        Q(until=None) | Q(until__gt=now), user=user, kind__in=list(kinds), lifted=None
    )


def muted_until(user: User, now: datetime | None = None) -> Restriction | None:
    """The user's live chat mute (the one lasting longest), or None."""
    mutes = list(active_restrictions(user, [Restriction.Kind.MUTE], now))
    if not mutes:
        return None
    return max(mutes, key=lambda r: (r.until is None, r.until or timezone.now()))
