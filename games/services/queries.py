"""Reading tables for a user: what they may see, shaped for the API and the pages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import engine, presence
from games.models import Move, Seat, Table

from .bot_levels import bot_level
from .clocks import clock_meta
from .errors import NotSeated
from .log import log_page, table_log
from .selectors import read_table_with_seats, with_seats

LOBBY_LIMIT = 100
# A player's own tables in the lobby: all that are open or played (a bound, not a page: nobody
# plays this many at once), and the last finished ones; the rest are in their statistics.
ACTIVE_LIMIT = 500
FINISHED_LIMIT = 10
# Public games being played that a player could watch, the most recently moved first.
WATCH_LIMIT = 10


def table_get_for_user(*, table_id: int, user: User | AnonymousUser) -> tuple[Table, list[Seat]]:
    """A table and its seats, if ``user`` may see it: seated, or the table is public."""
    table, seats = table_read(table_id=table_id)
    table_check_access(table, seats, user)
    return table, seats


def table_read(*, table_id: int) -> tuple[Table, list[Seat]]:
    """A table and its seats, for anyone: check who may see them with table_check_access.

    The websocket reads a table once per change for all its sockets in a process (the state
    is the big part of the row), then checks each socket's user against that one read.
    """
    return read_table_with_seats(table_id, lock=False)


def table_check_access(table: Table, seats: list[Seat], user: User | AnonymousUser) -> None:
    """Raise NotSeated unless ``user`` may see the table: seated (not expelled), or public."""
    if not table.public and seat_of(seats, user) is None:
        raise NotSeated("this table is private")


def table_list_for_user(*, user: User, to_watch: bool = False) -> list[Table]:
    """Every table the user sits at that is open or being played, their
    ``FINISHED_LIMIT`` most recently finished ones, the newest ``LOBBY_LIMIT`` open public
    tables and, with ``to_watch`` (the lobby's page; not ``GET /api/tables``), the
    ``WATCH_LIMIT`` public games being played that moved last; newest first, in one query.
    One cut over them all hid a game of weeks ago still waiting on a player from them once
    they had played a hundred quick games since."""
    mine = Seat.objects.filter(user=user).values("table_id")
    live = Table.objects.filter(
        pk__in=mine, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
    ).order_by("-created")[:ACTIVE_LIMIT]
    finished = Table.objects.filter(pk__in=mine, status=Table.Status.FINISHED).order_by("-updated")[
        :FINISHED_LIMIT
    ]
    joinable = Table.objects.filter(status=Table.Status.OPEN, public=True).order_by("-created")[
        :LOBBY_LIMIT
    ]
    wanted = (
        Q(pk__in=live.values("pk"))
        | Q(pk__in=finished.values("pk"))
        | Q(pk__in=joinable.values("pk"))
    )
    if to_watch:
        watchable = (
            Table.objects.filter(status=Table.Status.PLAYING, public=True)
            .exclude(pk__in=mine)
            .order_by("-updated")[:WATCH_LIMIT]
        )
        wanted |= Q(pk__in=watchable.values("pk"))
    tables = Table.objects.filter(wanted)
    return list(with_seats(tables.order_by("-created")))


def table_list_open(*, limit: int = LOBBY_LIMIT) -> QuerySet[Table]:
    """Open public tables (newest first), for visitors who are not signed in."""
    tables = Table.objects.filter(status=Table.Status.OPEN, public=True).order_by("-created")
    return with_seats(tables)[:limit]


def seat_of(seats: list[Seat], user: User | AnonymousUser) -> Seat | None:
    """The user's seat, for what they may see. An expelled player's seat is the bot's now:
    they see what a spectator sees (and nothing on a private table), here and on the socket."""
    if not user.pk:
        return None
    return next((s for s in seats if s.user_id == user.pk and not s.expelled), None)


def table_meta(table: Table, seats: list[Seat], user: User | AnonymousUser) -> dict[str, Any]:
    mine = seat_of(seats, user)
    insider = mine is not None or (user.pk is not None and table.host_id == user.pk)
    return {
        "id": table.pk,
        "status": table.status,
        "version": table.version,
        "ruleset": table.ruleset,
        "public": table.public,
        "seats_total": table.seat_count,
        "turn_seconds": table.options.get("turn_seconds"),
        "window_seconds": table.options.get("window_seconds"),
        "strikes": table.options.get("strikes"),
        "host": table.host.get_username() if table.host else None,
        "invite_code": table.invite_code if insider else None,
        "my_seat": mine.position if mine else None,
        "seats": [
            {
                "position": s.position,
                "user": s.user.get_username() if s.user else None,
                "is_bot": s.is_bot,
                "missed_turns": s.missed_turns,
                "expelled": s.expelled,
                "bot_level": bot_level(table, s) if s.played_by_bot else None,
            }
            for s in seats
        ],
        "bank_seconds": table.options.get("bank_seconds"),
        "bank_max_seconds": table.options.get("bank_max_seconds"),
        # Time left per seat and the running turn's start, for the page's clocks.
        "clocks": clock_meta(table, seats, timezone.now()),
        "buy_order": (
            {"order": mine.buy_order, "limit": mine.buy_order_limit} if mine is not None else None
        ),
        "window_deadline": table.window_deadline.isoformat() if table.window_deadline else None,
        "turn_deadline": table.turn_deadline.isoformat() if table.turn_deadline else None,
        "created": table.created.isoformat(),
        # Deals anyone can verify (issue 12): the seed's SHA-256 from the start, the seed
        # itself only once the game is over (stats/replay.py checks one against the other).
        "seed_sha256": table.seed_sha256 or None,
        "seed": revealed_seed(table),
        # The version this player had seen before this read ("since you last looked": the
        # log's entries with a higher version are new to them); None for a spectator.
        "last_seen_version": mine.last_seen_version if mine else None,
        # "Play again": the table made from this one with the same players, once made.
        "rematch": table.rematch_id,
        # Set when a moderator aborted the table: {"by", "reason", "at"} (moderation app).
        "aborted": table.options.get("aborted"),
    }


def revealed_seed(table: Table) -> str | None:
    """The game's seed once nothing is left to hide: the game is over (or was aborted)."""
    if table.state is None or table.status not in (Table.Status.FINISHED, Table.Status.ABORTED):
        return None
    return engine.seed_of(table.state)


def table_view(table: Table, seats: list[Seat], user: User | AnonymousUser) -> dict | None:
    """The engine's view for the user's seat; the spectator view otherwise; None before start."""
    if table.state is None:
        return None
    mine = seat_of(seats, user)
    view = engine.view(table.state, mine.position if mine else None)
    if mine is not None and view["hand"] is not None:
        # The page's "melds" sort: the engine groups this seat's own hand into the melds of
        # the round's contract it could lay down (none once the game is over). Added here, not
        # in engine.view, which the simulator's invariant checks call after every action for
        # every seat.
        view["hand_melds"] = (
            [] if view["game_over"] else engine.hand_melds(table.state, mine.position)
        )
    return view


def table_payload(
    table: Table,
    seats: list[Seat],
    user: User | AnonymousUser,
    *,
    since: int | None = None,
    moves: Sequence[Move] | None = None,
    online: OnlineMarks | None = None,
) -> dict[str, Any]:
    """The table, the user's view and the log of the moves after version ``since`` (or the
    given ``moves``: see games/services/log.py). ``online``: the seats' online marks, read
    once for several payloads of one read (table_online); read here without it."""
    meta = table_meta(table, seats, user)
    _mark_online(meta, seats, online if online is not None else table_online(seats))
    return {
        "table": meta,
        "view": table_view(table, seats, user),
        "log": table_log(table, _position(seats, user), since=since, moves=moves),
    }


@dataclass(frozen=True)
class OnlineMarks:
    """Which of a table's seated people are online; ``by_user`` None when the cache cannot
    tell."""

    by_user: dict[int, bool] | None


def table_online(seats: list[Seat]) -> OnlineMarks:
    """The online marks of the seats' people: one cache read."""
    people = sorted({s.user_id for s in seats if s.user_id is not None and not s.is_bot})
    return OnlineMarks(presence.online_many(people))


def _mark_online(meta: dict[str, Any], seats: list[Seat], marks: OnlineMarks) -> None:
    """Each person's seat says whether they are online (the table page's dot): a socket or a
    request within MAYI_ONLINE_SECONDS. A bot's seat says ``None``, and so does every seat
    when the cache cannot tell."""
    people = {s.position: s.user_id for s in seats if s.user_id is not None and not s.is_bot}
    online = marks.by_user
    for seat in meta["seats"]:
        user_id = people.get(seat["position"])
        seat["online"] = None if online is None or user_id is None else online.get(user_id)


def _position(seats: list[Seat], user: User | AnonymousUser) -> int | None:
    # Whose eyes the log is for: the view's rule (an expelled player sees what others see).
    mine = seat_of(seats, user)
    return mine.position if mine else None


def table_log_page(
    *,
    table: Table,
    seats: list[Seat],
    user: User | AnonymousUser,
    before: int | None,
    limit: int,
) -> dict[str, Any]:
    """Older moves of the log as ``user`` may see them (the caller checked access)."""
    return log_page(table, _position(seats, user), before=before, limit=limit)
