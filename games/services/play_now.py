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

from accounts.models import Profile
from games.models import BotLevel, Table
from games.options import TABLE_DEFAULTS

from .errors import ServiceError
from .locking import retry_on_contention
from .tables import table_fill_with_bots, table_open, table_start

PLAY_NOW_RULESET = "bga"
PLAY_NOW_SEATS = 4
# Seconds the person has to say "May I?" for a card a bot did not take, by default; below the
# minimum a person may choose for a table of people (MAYI_MIN_CLOCK_SECONDS), on purpose. Ten
# was shorter than a new player's reaction (offers missed while reading the screen): the
# player chooses among these, and the choice is kept on their profile.
PLAY_NOW_WINDOW_SECONDS = 20
PLAY_NOW_WINDOW_CHOICES = (10, 20, 30, 60)
# A day a turn: nobody else waits on the person, so only a walk-away needs a clock at all.
PLAY_NOW_TURN_SECONDS = TABLE_DEFAULTS.turn_seconds


def play_now_options(
    *, seats: int = PLAY_NOW_SEATS, window_seconds: int = PLAY_NOW_WINDOW_SECONDS
) -> dict[str, Any]:
    """The table options of a "Play now" table (the clocks made for play against bots)."""
    return {
        "seats": seats,
        "turn_seconds": PLAY_NOW_TURN_SECONDS,
        "bank_seconds": PLAY_NOW_TURN_SECONDS,
        "bank_max_seconds": PLAY_NOW_TURN_SECONDS,
        "window_seconds": window_seconds,
        "strikes": TABLE_DEFAULTS.strikes,
        "engine": {},
    }


@retry_on_contention
def table_play_now(
    *,
    user: User,
    ruleset: str = PLAY_NOW_RULESET,
    seats: int = PLAY_NOW_SEATS,
    level: str = BotLevel.NORMAL,
    window_seconds: int | None = None,
    seed: str | None = None,
) -> Table:
    """Open a private table for ``user`` with bots playing at ``level`` (easy, normal,
    strong, expert) in the other seats, and start it.

    ``window_seconds``: the "May I?" window, one of PLAY_NOW_WINDOW_CHOICES, remembered on the
    user's profile for the next time; None: the one remembered (20 s until a choice is made).
    One transaction: the person never sees a half-made table. The bots play until it is the
    person's turn (or a window waits on them). ``seed`` is for tests that must know the deal.
    """
    if window_seconds is not None and window_seconds not in PLAY_NOW_WINDOW_CHOICES:
        raise ServiceError(
            "Choose a “May I?” window of "
            + ", ".join(str(s) for s in PLAY_NOW_WINDOW_CHOICES[:-1])
            + f" or {PLAY_NOW_WINDOW_CHOICES[-1]} seconds."
        )
    with transaction.atomic():
        window = profile_remember_play_now_window(user=user, window_seconds=window_seconds)
        table = table_open(
            host=user,
            ruleset=ruleset,
            options=play_now_options(seats=seats, window_seconds=window),
            public=False,
        )
        table_fill_with_bots(user=user, table_id=table.pk, level=level)
        table_start(user=user, table_id=table.pk, seed=seed)
    table.refresh_from_db()
    return table


def profile_play_now_window(*, user: User) -> int:
    """The "May I?" window ``user`` chose last for "Play now" (the default before any)."""
    found = Profile.objects.filter(user=user).values_list("play_now_window_seconds", flat=True)
    for seconds in found:
        return int(seconds) if seconds in PLAY_NOW_WINDOW_CHOICES else PLAY_NOW_WINDOW_SECONDS
    return PLAY_NOW_WINDOW_SECONDS


def profile_remember_play_now_window(*, user: User, window_seconds: int | None) -> int:
    """The window to use now: ``window_seconds``, kept on the profile when it is a new choice;
    None: the one kept."""
    if window_seconds is None:
        return profile_play_now_window(user=user)
    if profile_play_now_window(user=user) != window_seconds:
        profile = Profile.objects.for_user(user)
        Profile.objects.filter(pk=profile.pk).update(play_now_window_seconds=window_seconds)
    return window_seconds
