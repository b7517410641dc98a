""" "Play again" with the same players: a new table with the finished one's ruleset, options
and seats (the people seated where they sat, bots as bots).

Idempotent: the new table is written under the finished table's row lock and recorded on
it (``Table.rematch``, a one-to-one column), so two clicks, or two players clicking at once,
make one table and everyone who asks is sent to it.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import transaction

from games.models import Seat, Table

from .errors import Conflict, NotSeated
from .locked import do_announce, do_bump_version
from .locking import lock_table_with_seats, retry_on_contention
from .queries import seat_of
from .tables import table_start


@retry_on_contention
def table_rematch(*, user: User, table_id: int) -> Table:
    """The table that replays finished table ``table_id`` with the same players, made now if
    there is none yet. The asker hosts it; when they are its only person it starts at once
    (a game against bots), else the others find it seated for them (``meta.rematch`` of the
    old table, which every seat's page receives) and the host starts it."""
    with transaction.atomic():
        old, seats = lock_table_with_seats(table_id)
        if seat_of(seats, user) is None:
            raise NotSeated("only a player of this game can ask to play again")
        if old.status != Table.Status.FINISHED:
            raise Conflict("the game is not over yet", code="game_not_over")
        if old.rematch_id is not None:
            return Table.objects.get(pk=old.rematch_id)
        new = Table.objects.create(
            ruleset=old.ruleset,
            options=dict(old.options),
            public=old.public,
            invite_code=secrets.token_urlsafe(9),
            host=user,
        )
        people = 0
        rows = []
        for seat in seats:
            # A player whose account is gone is replaced by a bot.
            human = not seat.is_bot and seat.user_id is not None
            people += human
            rows.append(
                Seat(
                    table=new,
                    position=seat.position,
                    user_id=seat.user_id if human else None,
                    is_bot=not human,
                )
            )
        Seat.objects.bulk_create(rows)
        old.rematch = new
        do_bump_version(old, fields=["rematch"])
        if people == 1:
            new = table_start(user=user, table_id=new.pk)
        else:
            do_announce(new)
    return new
