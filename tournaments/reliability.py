"""A player's reliability for a tournament's minimum: issue 29's figure (stats/reliability.py),
the share of their last games they finished in their seat; None while they have played too
few games for it to show."""

from __future__ import annotations

from django.contrib.auth.models import User

from stats.reliability import reliability


def reliability_of(user: User) -> float | None:
    """The share of ``user``'s recent games they finished (0 to 1), or None when new."""
    return reliability(user).share
