"""Reading tables for a user: what they may see, shaped for the API and the pages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import engine, presence, providers
from games.models import Move, Seat, Table

from .bot_levels import bot_level
from .clocks import clock_meta
from .errors import NotSeated, StaleVersion
from .log import log_page, table_log
from .pace import LobbyFilters
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
    """Raise NotSeated unless ``user`` may see the table: seated (not expelled), or public;
    and not while their own table plays the same duplicate deal (:func:`deal_hidden_because`)."""
    if not table.public and seat_of(seats, user) is None:
        raise NotSeated("this table is private")
    hidden = deal_hidden_because(table, seats, user)
    if hidden is not None:
        raise NotSeated(hidden, code="deal_in_play")


def deal_hidden_because(table: Table, seats: list[Seat], user: User | AnonymousUser) -> str | None:
    """Why ``user`` may not see this table of a duplicate deal (a tournament's: tables sharing
    one seed), or None. Its cards and moves would tell someone about their own game while
    another table plays the same deal: a player seated there (or who was, before a bot took
    the seat over) waits until their own table ends; a visitor who is not signed in (who
    could be one of them) until every other table of the deal has. Tables of one deal share
    the seed's published commitment; only tables made as duplicates pay the query."""
    if not table.options.get("duplicate") or not table.seed_sha256:
        return None
    if user.pk and any(s.user_id == user.pk for s in seats):
        return None
    others = Table.objects.filter(
        seed_sha256=table.seed_sha256, status=Table.Status.PLAYING
    ).exclude(pk=table.pk)
    if not user.pk:
        if others.exists():
            return "sign in to watch: this deal is still being played at other tables"
        return None
    if Seat.objects.filter(user_id=user.pk, table__in=others).exists():
        return (
            "your own table is still playing this deal: the other tables that play it open "
            "to you when yours ends"
        )
    return None


def table_list_for_user(
    *,
    user: User,
    to_watch: bool = False,
    filters: LobbyFilters | None = None,
) -> list[Table]:
    """Every table the user sits at that is open or being played, their
    ``FINISHED_LIMIT`` most recently ended ones (finished, or aborted by a moderator), the
    newest ``LOBBY_LIMIT`` open public tables with a seat free (``filters``: of the ruleset,
    pace and seats free asked for) and, with ``to_watch`` (the lobby's page; not ``GET
    /api/tables``), the ``WATCH_LIMIT`` public games being played that moved last; newest
    first, in one query. One cut over them all hid a game of weeks ago still waiting on a
    player from them once they had played a hundred quick games since. Tables where a player
    sits whom the user blocked, or who blocked them, are not offered to join or watch."""
    mine = Seat.objects.filter(user=user).values("table_id")
    live = Table.objects.filter(
        pk__in=mine, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
    ).order_by("-created")[:ACTIVE_LIMIT]
    # An aborted game is listed among the ended ones, with the moderator's reason (a table
    # its host left alone is aborted too, but has no seat left to list it by).
    finished = Table.objects.filter(
        pk__in=mine, status__in=[Table.Status.FINISHED, Table.Status.ABORTED]
    ).order_by("-updated")[:FINISHED_LIMIT]
    joinable = (filters or LobbyFilters()).apply(
        Table.objects.filter(status=Table.Status.OPEN, public=True).exclude(pk__in=mine)
    )
    for avoided in providers.relations().avoided_querysets(user):
        joinable = joinable.exclude(seats__user_id__in=avoided)
    wanted = (
        Q(pk__in=live.values("pk"))
        | Q(pk__in=finished.values("pk"))
        | Q(pk__in=joinable.order_by("-created").values("pk")[:LOBBY_LIMIT])
    )
    if to_watch:
        # Nor another table of a deal mine is playing (a tournament's duplicate deal): it
        # would answer deal_in_play. Seeds are otherwise unique, so this drops nothing else.
        my_deals = Table.objects.filter(pk__in=mine, status=Table.Status.PLAYING).exclude(
            seed_sha256=""
        )
        watchable = (
            Table.objects.filter(status=Table.Status.PLAYING, public=True)
            .exclude(pk__in=mine)
            .exclude(seed_sha256__in=my_deals.values("seed_sha256"))
        )
        for avoided in providers.relations().avoided_querysets(user):
            watchable = watchable.exclude(seats__user_id__in=avoided)
        wanted |= Q(pk__in=watchable.order_by("-updated").values("pk")[:WATCH_LIMIT])
    tables = Table.objects.filter(wanted)
    return list(with_seats(tables.order_by("-created")))


def table_list_open(
    *, limit: int = LOBBY_LIMIT, filters: LobbyFilters | None = None
) -> QuerySet[Table]:
    """Open public tables with a seat free (newest first), for visitors who are not signed
    in."""
    tables = (filters or LobbyFilters()).apply(
        Table.objects.filter(status=Table.Status.OPEN, public=True)
    )
    return with_seats(Table.objects.filter(pk__in=tables.values("pk")).order_by("-created"))[:limit]


def seat_of(seats: list[Seat], user: User | AnonymousUser) -> Seat | None:
    """The user's seat, for what they may see. An expelled player's seat is the bot's now:
    they see what a spectator sees (and nothing on a private table), here and on the socket."""
    if not user.pk:
        return None
    return next((s for s in seats if s.user_id == user.pk and not s.expelled), None)


# The keys of a table's meta that depend on who reads it; the others are the same for all.
USER_KEYS = ("invite_code", "my_seat", "buy_order", "last_seen_version")


@dataclass(frozen=True)
class SharedMeta:
    """The part of a table's meta every reader of one read of it shares (all but USER_KEYS,
    the seats' online marks included): built once for the frames of all a table's sockets
    after a change (games/live.py), not once per socket. Read-only."""

    meta: dict[str, Any]


def table_meta(
    table: Table,
    seats: list[Seat],
    user: User | AnonymousUser,
    *,
    results: bool = False,
    shared: SharedMeta | None = None,
) -> dict[str, Any]:
    """The table as ``user`` sees it: every key of the API's TableMetaOut, so a socket's frame
    (games/live.py) and the API's answer are the same JSON. ``results``: read the rating
    changes of a finished table (one query; a list of tables leaves them out, null).
    ``shared``: the part every user shares, already built from this read."""
    mine = seat_of(seats, user)
    insider = mine is not None or (user.pk is not None and table.host_id == user.pk)
    # A copy of the shared part with this user's keys set in their places (update keeps the
    # keys' order: the JSON reads as it always did).
    meta = dict(shared.meta) if shared is not None else _meta_for_all(table, seats, results)
    meta["invite_code"] = table.invite_code if insider else None
    meta["my_seat"] = mine.position if mine else None
    meta["buy_order"] = (
        {"order": mine.buy_order, "limit": mine.buy_order_limit} if mine is not None else None
    )
    # The version this player had seen before this read ("since you last looked": the log's
    # entries with a higher version are new to them); None for a spectator.
    meta["last_seen_version"] = mine.last_seen_version if mine else None
    return meta


def table_meta_shared(
    table: Table, seats: list[Seat], *, online: OnlineMarks | None = None
) -> SharedMeta:
    """The meta every user's payload of this read shares (a finished game's rating changes
    read once), with the seats' ``online`` marks (read here without them)."""
    meta = _meta_for_all(table, seats, True)
    _mark_online(meta, seats, online if online is not None else table_online(seats))
    return SharedMeta(meta)


def _meta_for_all(table: Table, seats: list[Seat], results: bool) -> dict[str, Any]:
    """The meta's keys that are the same for every user (USER_KEYS hold None, in place)."""
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
        # Who may join (games/services/join_rules.py): None when anyone may.
        "min_reliability": table.options.get("min_reliability"),
        "max_timeouts": table.options.get("max_timeouts"),
        "host": table.host.get_username() if table.host else None,
        "invite_code": None,
        "my_seat": None,
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
        "buy_order": None,
        "window_deadline": table.window_deadline.isoformat() if table.window_deadline else None,
        "turn_deadline": table.turn_deadline.isoformat() if table.turn_deadline else None,
        "created": table.created.isoformat(),
        # Deals anyone can verify (issue 12): the seed's SHA-256 from the start, the seed
        # itself only once the game is over (stats/replay.py checks one against the other).
        "seed_sha256": table.seed_sha256 or None,
        "seed": revealed_seed(table),
        "last_seen_version": None,
        # "Play again": the table made from this one with the same players, once made.
        "rematch": table.rematch_id,
        # Set when a moderator aborted the table: {"by", "reason", "at"} (moderation app).
        "aborted": table.options.get("aborted"),
        # The final scores show each person's rating change (issue 29): read only once the
        # game is over, so a frame of a game in play costs no query for it.
        "rating_changes": (
            providers.trust().rating_changes(table.pk)
            if results and table.status == Table.Status.FINISHED
            else None
        ),
    }


def revealed_seed(table: Table) -> str | None:
    """The game's seed once nothing is left to hide: the game is over (or was aborted)."""
    if table.state is None or table.status not in (Table.Status.FINISHED, Table.Status.ABORTED):
        return None
    return engine.seed_of(table.state)


def table_view(table: Table, seats: list[Seat], user: User | AnonymousUser) -> engine.View | None:
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
    shared: SharedMeta | None = None,
) -> dict[str, Any]:
    """The table, the user's view and the log of the moves after version ``since`` (or the
    given ``moves``: see games/services/log.py). ``online``: the seats' online marks, read
    once for several payloads of one read (table_online); read here without it. ``shared``:
    the meta every user's payload of this read shares (table_meta_shared), marks included."""
    meta = table_meta(table, seats, user, results=True, shared=shared)
    if shared is None:
        _mark_online(meta, seats, online if online is not None else table_online(seats))
    return {
        "table": meta,
        "view": table_view(table, seats, user),
        "log": table_log(table, _position(seats, user), since=since, moves=moves),
    }


def table_stale_payload(stale: StaleVersion, user: User | AnonymousUser) -> dict[str, Any]:
    """What a stale action's refusal carries beside its error (the API's 409, the socket's
    error): the fresh table, the user's view and the moves after the version they had. The
    fresh view goes only to someone who may see the table: raises NotSeated otherwise."""
    table_check_access(stale.table, stale.seats, user)
    return table_payload(stale.table, stale.seats, user, since=stale.since)


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
