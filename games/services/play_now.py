""" "Play now against bots": one click from the home page to a started table.

A table of one person and bots needs other clocks than a table of friends playing over days:
the bots answer "May I?" in the transaction of the move that opened the window, so the only
seat a window can wait on is the person's, and an hour-long window would stop the game each
time a bot draws from the stock. The window is therefore seconds; the turn clock stays
generous (the person may leave and come back).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from games.models import BotLevel, Table

from .locking import retry_on_contention
from .tables import DEFAULT_STRIKES, table_fill_with_bots, table_open, table_start

PLAY_NOW_RULESET = "bga"
PLAY_NOW_SEATS = 4
# Seconds the person has to say "May I?" for a card a bot did not take; below the minimum a
# person may choose for a table of people (MAYI_MIN_CLOCK_SECONDS), on purpose.
PLAY_NOW_WINDOW_SECONDS = 10
# A day a turn: nobody else waits on the person, so only a walk-away needs a clock at all.
PLAY_NOW_TURN_SECONDS = 24 * 3600


def play_now_options(*, seats: int = PLAY_NOW_SEATS) -> dict[str, Any]:
    """The table options of a "Play now" table (the clocks made for play against bots)."""
    return {
        "seats": seats,
        "turn_seconds": PLAY_NOW_TURN_SECONDS,
        "bank_seconds": PLAY_NOW_TURN_SECONDS,
        "bank_max_seconds": PLAY_NOW_TURN_SECONDS,
        "window_seconds": PLAY_NOW_WINDOW_SECONDS,
        "strikes": DEFAULT_STRIKES,
        "engine": {},
    }


@retry_on_contention
def table_play_now(
    *,
    user: User,
    ruleset: str = PLAY_NOW_RULESET,
    seats: int = PLAY_NOW_SEATS,
    level: str = BotLevel.NORMAL,
    seed: str | None = None,
) -> Table:
    """Open a private table for ``user`` with bots playing at ``level`` (easy, normal,
    strong) in the other seats, and start it.

    One transaction: the person never sees a half-made table. The bots play until it is the
    person's turn (or a window waits on them). ``seed`` is for tests that must know the deal.
    """
    with transaction.atomic():
        table = table_open(
            host=user, ruleset=ruleset, options=play_now_options(seats=seats), public=False
        )
        table_fill_with_bots(user=user, table_id=table.pk, level=level)
        table_start(user=user, table_id=table.pk, seed=seed)
    table.refresh_from_db()
    return table
