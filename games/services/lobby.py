"""The lobby's read: my games (the ones waiting on me first), the open tables to join, and
public games being played to watch."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import engine
from games.models import Table
from games.names import bot_name

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
    state = table.state
    if position is None or state is None or table.status != Table.Status.PLAYING:
        return ""
    if position not in engine.seats_to_act(state):
        return ""
    if engine.window_open(state) and position in engine.answerers(state):
        return MAY_I_OPEN
    return YOUR_TURN


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


def lobby_for_user(*, user: User | AnonymousUser) -> Lobby:
    """My tables (waiting on me first, then the most recently changed), the open public
    tables I could join and the public games being played I could watch. A signed-out visitor
    gets the open tables only (watching a table needs an account)."""
    if user.is_authenticated:
        tables = list(table_list_for_user(user=user, to_watch=True))
    else:
        tables = list(table_list_open(limit=50))
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
    return Lobby(mine=mine, open_tables=open_tables, to_watch=to_watch)
