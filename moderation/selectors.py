"""Reading restrictions: is a user muted, suspended or banned right now."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import Restriction

ACCOUNT_KINDS = (Restriction.Kind.SUSPEND, Restriction.Kind.BAN)


def in_force(now: datetime | None = None) -> Q:
    """A restriction in force at ``now``: not lifted, and with no end or an end to come (one
    past its end counts as ended before the sweep marks it lifted)."""
    return Q(lifted=None) & (Q(until=None) | Q(until__gt=now or timezone.now()))


def active_restrictions(
    user: User, kinds: Iterable[str], now: datetime | None = None
) -> QuerySet[Restriction]:
    return Restriction.objects.filter(in_force(now), user=user, kind__in=list(kinds))


def lasting_longest(
    user: User, kinds: Iterable[str], now: datetime | None = None
) -> Restriction | None:
    """Of the user's live restrictions of ``kinds``, the one lasting longest (one with no end
    first), or None."""
    live = list(active_restrictions(user, kinds, now))
    return max(live, key=lambda r: (r.until is None, r.until or timezone.now()), default=None)


def muted_until(user: User, now: datetime | None = None) -> Restriction | None:
    """The user's live chat mute (the one lasting longest), or None."""
    return lasting_longest(user, [Restriction.Kind.MUTE], now)
