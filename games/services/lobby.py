"""The lobby's read: my games (the ones waiting on me first), the open tables to join, and
public games being played to watch."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import engine, providers
from games.models import Seat, Table
from games.names import bot_name
from games.reliability import Figure

from .pace import LobbyFilters, pace_words, window_words
from .queries import seat_of, table_list_for_user, table_list_open, table_meta
from .selectors import seats_of

YOUR_TURN = "your_turn"
MAY_I_OPEN = "may_i"
MARK_LABELS = {YOUR_TURN: "your turn", MAY_I_OPEN: "May I? open"}


@dataclass
class LobbyEntry:
    table: Table
    meta: dict[str, Any]
    # YOUR_TURN, MAY_I_OPEN or "" (the game waits on somebody else, or is not playing).
    mark: str
    # The last change to the table: a move, a seat taken, the start.
    last_move: datetime
    # A game being played: "round 3 of 7", and whom it waits on when not on me ("Bob's
    # turn", "May I? open: Bob, Carol"), so a player of several games over days sees where
    # each one stands without opening it.
    progress: str = ""
    waiting_on: str = ""
    # My turn's clock, from the table's clocks: "49 min left" ("" when it is not my turn),
    # so a player with several games waiting over days sees which one is about to time out.
    clock_left: str = ""
    # A finished game of mine: my place and score ("2nd of 4 · 87 points"), as my
    # statistics' history says it, so "My games" tells how each one went without opening it.
    result: str = ""
    # Issue 29: the pace in words ("1 day a turn", "fast: 2 min a turn"; "“May I?” 1 h"),
    # each seated person's reliability by position, the friends seated (their tables first),
    # and a moderator's reason for aborting it.
    pace: str = ""
    window: str = ""
    reliability: dict[int, Figure] = field(default_factory=dict)
    friends_here: list[str] = field(default_factory=list)
    aborted_reason: str = ""

    @property
    def mark_label(self) -> str:
        return MARK_LABELS.get(self.mark, "")


@dataclass
class Lobby:
    mine: list[LobbyEntry]
    open_tables: list[LobbyEntry]
    # Public games being played at which I have no seat, the most recently moved first: a
    # new player sees how the game goes, a regular finds a friend's game.
    to_watch: list[LobbyEntry] = field(default_factory=list)
    # Invitations of friends to their open tables (social's, games.providers.Relations), and
    # the open tables' filters.
    invitations: list[Any] = field(default_factory=list)
    filters: LobbyFilters = field(default_factory=LobbyFilters)

    @property
    def finished_shown(self) -> bool:
        """Some of my finished games are listed (the last few: older ones are in my
        statistics' history)."""
        return any(e.table.status == Table.Status.FINISHED for e in self.mine)


def waiting_mark(table: Table, position: int | None) -> str:
    """What the game waits on this seat for: its turn, an open "May I?" window, or nothing.

    The engine says which seats the game waits on (``seats_to_act``) and which of them may
    answer a window (``answerers``); this only names the difference.
    """
    if table.status != Table.Status.PLAYING:
        return ""
    return state_mark(table.state, position)


def state_mark(state: engine.State | None, position: int | None) -> str:
    """``waiting_mark`` of a game being played, from its engine state alone (the header's
    count reads the states without the table rows)."""
    if position is None or state is None:
        return ""
    if position not in engine.seats_to_act(state):
        return ""
    if engine.window_open(state) and position in engine.answerers(state):
        return MAY_I_OPEN
    return YOUR_TURN


def tables_waiting_on(*, user: User | AnonymousUser) -> list[int]:
    """The ids of the games being played that wait on ``user`` (their turn, or a "May I?" they
    may answer), the lobby's marks (``waiting_mark``) without the rest of the lobby: one query,
    for the header's count on every page and ``GET /api/me/waiting``. Oldest table first."""
    if not user.is_authenticated:
        return []
    rows = (
        Seat.objects.filter(user=user, expelled=False, table__status=Table.Status.PLAYING)
        .order_by("table_id")
        .values_list("table_id", "position", "table__state")
    )
    return [table_id for table_id, position, state in rows if state_mark(state, position)]


def _seat_name(seat: dict[str, Any]) -> str:
    if seat["is_bot"] or not seat["user"]:
        return bot_name(seat["position"])
    return str(seat["user"])


def _day(iso: str) -> str:
    """ "Dec 3" of an ISO time (UTC, as the vacation's): short, and no hyphen to break at on
    a phone ("2026-" on one line, "12-03" on the next)."""
    moment = datetime.fromisoformat(iso)
    return f"{moment:%b} {moment.day}"


def progress_of(table: Table) -> str:
    """ "round 3 of 7" while the game is played; "" otherwise."""
    if table.state is None or table.status != Table.Status.PLAYING:
        return ""
    round_no, rounds = engine.round_progress(table.state)
    return f"round {round_no} of {rounds}"


def ordinal(n: int) -> str:
    """
    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def my_result(table: Table, position: int | None) -> str:
    """ "2nd of 4 · 87 points" (lowest total wins; a tie shares the place) for a finished game
    I sat at; "" otherwise."""
    state = table.state
    if position is None or state is None or table.status != Table.Status.FINISHED:
        return ""
    places, totals = state.get("places"), state.get("totals")
    if not places or not totals or position >= len(places):
        return ""
    place = places[position]
    tied = sum(1 for p in places if p == place) > 1
    points = totals[position]
    unit = "point" if abs(points) == 1 else "points"
    return f"{ordinal(place)}{' (tied)' if tied else ''} of {len(places)} · {points} {unit}"


def waiting_on_others(table: Table, meta: dict[str, Any], position: int | None) -> str:
    """Whom a game being played waits on besides ``position``: "Bob's turn", or the seats
    still to answer an open "May I?" window; "" when it waits on nobody else."""
    state = table.state
    if state is None or table.status != Table.Status.PLAYING:
        return ""
    names = {s["position"]: _seat_name(s) for s in meta["seats"]}
    others = [p for p in engine.seats_to_act(state) if p != position and p in names]
    if not others:
        return ""
    answering = set(engine.answerers(state)) if engine.window_open(state) else set()
    turn = [p for p in others if p not in answering]
    if turn:
        # Their clock stands still while they are away: say so, or the game looks stuck.
        away = (_clock_of(meta, turn[0]) or {}).get("vacation_until")
        if away:
            return f"{names[turn[0]]}’s turn (on vacation until {_day(away)})"
        return f"{names[turn[0]]}’s turn"
    return "May I? open: " + ", ".join(names[p] for p in others)


def time_left(seconds: int) -> str:
    """A turn clock's time left, in the unit that matters at that size.

    >>> [time_left(s) for s in (30, 2940, 82800, 172800)]
    ['under a minute left', '49 min left', '23 h left', '2 days left']
    """
    if seconds < 60:
        return "under a minute left"
    if seconds < 3600:
        return f"{seconds // 60} min left"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} h left"
    return f"{seconds // 86400} days left"


def my_clock_left(meta: dict[str, Any], position: int | None, mark: str) -> str:
    """Time left on my running turn clock when the game waits on my turn; "" otherwise."""
    if mark != YOUR_TURN or position is None:
        return ""
    clock = _clock_of(meta, position)
    if clock is None or not clock["running"]:
        return ""
    if clock["vacation_until"]:
        # The deadline moved with the vacation: a countdown would run while it does not.
        return f"clock paused: on vacation until {_day(clock['vacation_until'])}"
    return time_left(int(clock["seconds_left"]))


def _clock_of(meta: dict[str, Any], position: int) -> dict[str, Any] | None:
    """Seat ``position``'s clock in the table's meta (``clock_meta``), if it has one."""
    return next(
        (c for c in meta.get("clocks", {}).get("seats", []) if c["position"] == position), None
    )


def lobby_for_user(*, user: User | AnonymousUser, filters: LobbyFilters | None = None) -> Lobby:
    """My tables (waiting on me first, then the most recently changed), the open public
    tables I could join (``filters``: of a ruleset, pace, seats free; my friends' first) and
    the public games being played I could watch, none where a player sits whom I blocked or
    who blocked me. A signed-out visitor gets the open tables only (watching a table needs an
    account)."""
    filters = filters or LobbyFilters()
    friends: set[int] = set()
    if user.is_authenticated:
        tables = list(table_list_for_user(user=user, to_watch=True, filters=filters))
        friends = providers.relations().friend_ids(user)
    else:
        tables = list(table_list_open(limit=50, filters=filters))
    mine: list[LobbyEntry] = []
    open_tables: list[LobbyEntry] = []
    for table in tables:
        seats = seats_of(table)
        meta = table_meta(table, seats, user)
        seat = seat_of(seats, user)
        position = seat.position if seat else None
        mark = waiting_mark(table, position)
        entry = LobbyEntry(
            table=table,
            meta=meta,
            mark=mark,
            clock_left=my_clock_left(meta, position, mark),
            last_move=table.updated,
            progress=progress_of(table),
            waiting_on=waiting_on_others(table, meta, position),
            result=my_result(table, position),
            pace=pace_words(meta["turn_seconds"]),
            window=window_words(meta["window_seconds"]),
            friends_here=[
                s.user.get_username() for s in seats if s.user is not None and s.user_id in friends
            ],
            aborted_reason=(meta.get("aborted") or {}).get("reason", ""),
        )
        (mine if seat is not None else open_tables).append(entry)
    # Waiting on me first; then playing, then open, then finished; newest change first.
    order: dict[str, int] = {
        Table.Status.PLAYING: 0,
        Table.Status.OPEN: 1,
        Table.Status.FINISHED: 2,
    }
    mine.sort(key=lambda e: -e.last_move.timestamp())
    mine.sort(key=lambda e: (e.mark == "", order.get(e.table.status, 3)))
    to_watch = [e for e in open_tables if e.table.status == Table.Status.PLAYING and e.table.public]
    to_watch.sort(key=lambda e: -e.last_move.timestamp())
    open_tables = [e for e in open_tables if e.table.status == Table.Status.OPEN]
    # My friends' tables first (the sort is stable: newest first within each).
    open_tables.sort(key=lambda e: not e.friends_here)
    _add_reliability([*mine, *open_tables, *to_watch])
    return Lobby(
        mine=mine,
        open_tables=open_tables,
        to_watch=to_watch,
        invitations=providers.relations().invitations_for(user) if user.is_authenticated else [],
        filters=filters,
    )


def _add_reliability(entries: list[LobbyEntry]) -> None:
    """Each seated person's reliability, for every entry, in one query."""
    seats = [(e, s) for e in entries for s in seats_of(e.table) if s.user_id and not s.is_bot]
    figures = providers.trust().reliability_many(s.user_id for _, s in seats)
    for entry, seat in seats:
        if seat.user_id is not None:
            entry.reliability[seat.position] = figures[seat.user_id]
