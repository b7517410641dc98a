""" "Since you last looked": the table version each player last saw.

Written on the reads a player makes on purpose (the table page, ``GET /api/tables/<id>``, a
socket opening or closing: the version its tab last showed, games/consumers.py), never on each
pushed frame, and only when the version moved on: one conditional UPDATE, and none at all when
nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q

from games.models import Seat

from .queries import seat_of


def seat_mark_seen(*, seats: Sequence[Seat], user: User | AnonymousUser, version: int) -> bool:
    """Record that ``user`` saw ``version`` of the table of ``seats`` (a read the caller just
    made). True if it was written. Never goes back: a slow request cannot undo a newer one."""
    mine = seat_of(list(seats), user)
    if mine is None or (mine.last_seen_version is not None and mine.last_seen_version >= version):
        return False
    Seat.objects.filter(pk=mine.pk).filter(
        Q(last_seen_version__isnull=True) | Q(last_seen_version__lt=version)
    ).update(last_seen_version=version)
    mine.last_seen_version = version
    return True


def seat_mark_seen_by_user(*, table_id: int, user: User, version: int) -> None:
    """The same from a socket that closed: the user's seat at the table, by ids (one UPDATE)."""
    Seat.objects.filter(table_id=table_id, user_id=user.pk, expelled=False).filter(
        Q(last_seen_version__isnull=True) | Q(last_seen_version__lt=version)
    ).update(last_seen_version=version)
