"""Live tables over websockets: the frame each socket gets, and the actions it sends.

The broadcast after a commit (``games/broadcast.py``) says only "table X is now at version N":
no view travels through the channel layer, so a frame can only ever hold what its own consumer
read here for its own user from the database, the same way ``GET /api/tables/<id>`` does.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User

from accounts.sessions import session_user, session_users
from games import broadcast, presence, services
from mayi_site import ratelimits

logger = logging.getLogger("games.live")

# Close codes of a refused or ended socket (4000-4999 are the application's own). The page
# reads them: 4401 asks to sign in again, 4403 and 4404 stop reconnecting.
CLOSE_SIGNED_OUT = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class Refused(Exception):
    """This socket may not (or may no longer) see this table; ``code`` is the close code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def table_read(table_id: int) -> tuple[Any, list[Any]]:
    """The table and its seats, read once per change for every socket of it in a process."""
    try:
        return services.table_read(table_id=table_id)
    except services.TableNotFound as exc:
        raise Refused(CLOSE_NOT_FOUND, exc.message) from None


def _seated_users(seats: list[Any]) -> dict[Any, User]:
    """The seats' users by id, as just read with the table: they spare the sessions' checks
    their user queries (accounts/sessions.py ``known``)."""
    return {seat.user_id: seat.user for seat in seats if seat.user is not None}


def table_frame(
    *, table_id: int, session_key: str | None, since: int | None = None, seen: bool = False
) -> dict[str, Any]:
    """The frame for this session's user: exactly what ``GET /api/tables/<id>?since=`` answers
    them, plus ``type`` and ``version``. Raises Refused when they may not see the table (any
    more). ``seen``: record the version as seen by the player (a socket opening).
    """
    user = session_user(session_key)
    if user is None:
        raise Refused(CLOSE_SIGNED_OUT, "sign in to follow a table")
    return user_frame(table_id=table_id, user=user, since=since, seen=seen)


def opening_frame(
    *, table_id: int, session_key: str | None, since: int | None, looking: bool
) -> tuple[User, dict[str, Any]]:
    """A socket opening: its session's user and their first frame, in one hop. ``looking``:
    the tab shows the table, so the version is recorded as seen and the user marked as looking
    at it (games/presence.py) before the frame is returned: a client that has the frame may
    count on the mark (no push about a table on its screen). Raises Refused."""
    # The table first: its seated players' rows, just read, spare the session's user query
    # when the socket is a player's (most openings). Signed out still answers before gone.
    if not session_key:
        raise Refused(CLOSE_SIGNED_OUT, "sign in to follow a table")
    try:
        table, seats = table_read(table_id)
    except Refused:
        if session_user(session_key) is None:
            raise Refused(CLOSE_SIGNED_OUT, "sign in to follow a table") from None
        raise
    known = _seated_users(seats)
    user = session_user(session_key, known)
    if user is None:
        raise Refused(CLOSE_SIGNED_OUT, "sign in to follow a table")
    frame = _frame_of_read(table, seats, user, since=since, seen=looking, looking=looking)
    return user, frame


def user_frame(
    *,
    table_id: int,
    user: User,
    since: int | None = None,
    seen: bool = False,
    looking: bool = False,
) -> dict[str, Any]:
    """:func:`table_frame` for a user whose session was just checked (a socket opening reads
    both in one hop: :func:`opening_frame`). ``looking``: mark the user as looking at the
    table (games/presence.py) before the frame is returned."""
    table, seats = table_read(table_id)
    return _frame_of_read(table, seats, user, since=since, seen=seen, looking=looking)


def _frame_of_read(
    table: Any, seats: list[Any], user: User, *, since: int | None, seen: bool, looking: bool
) -> dict[str, Any]:
    frame = frame_for(table, seats, user, since=since)
    if seen:
        services.seat_mark_seen(seats=seats, user=user, version=table.version)
    if looking:
        presence.mark_looking(user.pk, table.pk, True)
    return frame


def changed_frame(
    table: Any, seats: list[Any], session_key: str | None, moves: list[Any] | None = None
) -> dict[str, Any]:
    """:func:`table_frame` from a table read made after the change being pushed (a socket
    shares it with the table's other sockets); the session is checked again against it.
    ``moves``: the log's moves for this socket (read once for the sockets at one version)."""
    known = _seated_users(seats)
    user = session_user(session_key, known)
    if user is None:
        raise Refused(CLOSE_SIGNED_OUT, "signed out")
    return frame_for(table, seats, user, moves=moves)


def changed_frames(
    table_id: int, sockets: list[tuple[str | None, int]], version: int | None = None
) -> list[dict[str, Any] | Refused]:
    """:func:`changed_frame` for each of a process's sockets of a table, given as (session
    key, version it had), in one go: one read of the table, one of the log's moves per
    version the sockets had, one query for all their sessions, one read of the seats' online
    marks. Each socket's answer is its
    frame or the Refused it gets (signed out, no longer allowed); a table that is gone raises
    Refused for all.

    ``version``: the version announced. When this process committed it (a request or a
    socket's action here), the table, seats and moves as committed stand for the table read
    and the log read of the sockets that had the version before (games/services/recent.py)."""
    moves: dict[int, list[Any]] = {}
    recent = services.table_recent_commit(table_id, version) if version is not None else None
    if recent is not None:
        table, seats = recent.table, recent.seats
        moves[table.version - 1] = list(recent.moves)
    else:
        table, seats = table_read(table_id)
    known = _seated_users(seats)
    users = session_users(
        (key for key, _ in sockets), known, read_within=settings.MAYI_SESSION_RECHECK_SECONDS
    )
    for user in users.values():
        if user is not None:
            presence.mark_online(user.pk)  # before the marks are read, as frame_for does
    online = services.table_online(seats)
    # The table's meta but the keys that depend on the reader, built once for all of them.
    shared = services.table_meta_shared(table, seats, online=online)
    out: list[dict[str, Any] | Refused] = []
    for key, since in sockets:
        user = users.get(key) if key else None
        if user is None:
            out.append(Refused(CLOSE_SIGNED_OUT, "signed out"))
            continue
        if since not in moves:
            moves[since] = moves_since(table, None if since < 0 else since)
        try:
            out.append(frame_for(table, seats, user, moves=moves[since], shared=shared))
        except Refused as exc:
            out.append(exc)
    return out


def frame_for(
    table: Any,
    seats: list[Any],
    user: User,
    *,
    since: int | None = None,
    moves: list[Any] | None = None,
    online: services.OnlineMarks | None = None,
    shared: services.SharedMeta | None = None,
) -> dict[str, Any]:
    """The frame of ``user`` (signed in) from a read of the table and its seats, with the log
    of the moves after version ``since`` (or the given ``moves``), and the seats' ``online``
    marks, or the ``shared`` meta of this read, if built already."""
    # A socket that gets frames is a player at the page: no reminder emails (games/presence.py).
    presence.mark_online(user.pk)
    try:
        services.table_check_access(table, seats, user)
    except services.NotSeated as exc:
        raise Refused(CLOSE_FORBIDDEN, exc.message) from None
    payload = services.table_payload(
        table, seats, user, since=since, moves=moves, online=online, shared=shared
    )
    return {"type": "table", "version": table.version, **payload}


def moves_since(table: Any, since: int | None) -> list[Any]:
    """The moves a socket that had version ``since`` has not seen (one indexed read, shared by
    the table's sockets at that version)."""
    return services.moves_since(table, since)


def touch(session_key: str | None) -> bool:
    """A client's keepalive: still signed in? Then it is online. False when signed out."""
    user = session_user(session_key)
    if user is None:
        return False
    presence.mark_online(user.pk)
    return True


def table_act(
    *,
    table_id: int,
    session_key: str | None,
    action: dict[str, Any],
    expect_version: int,
    client: str | None = None,
) -> dict[str, Any]:
    """Play an action sent over the socket through the same service as the HTTP API, and
    return the fresh frame. Raises Refused, StaleActionFrame, or the service's and engine's
    errors. ``client``: the acting socket's name, which then gets no frame of the version
    from its process's batch (games/fanout.py): this answer brings it up to date.

    The session row is taken as read within ``MAYI_SESSION_RECHECK_SECONDS``, as the
    sockets' frames take it (accounts/sessions.py); the user is read afresh, as the API's
    token reads it, so a ban or a password change refuses the next move."""
    user = _acting_user(session_key)
    ratelimits.check("action", user=user)  # the same budget as the API's actions
    try:
        with broadcast.answering(table_id, client, user.pk):
            committed = services.table_submit_action(
                table_id=table_id, user=user, action=action, expect_version=expect_version
            )
    except services.StaleVersion as exc:
        raise StaleActionFrame(exc, _stale_frame(exc, user)) from None
    table = committed.table
    payload = services.table_payload(table, committed.seats, user, moves=committed.moves)
    return {"type": "table", "version": table.version, **payload}


class StaleActionFrame(Exception):
    """An action over the socket at a version that is no longer the table's: ``frame`` is the
    fresh one (the moves since the version the client had), for the answer to carry, as the
    API's 409 carries it."""

    def __init__(self, stale: services.StaleVersion, frame: dict[str, Any]) -> None:
        super().__init__(stale.message)
        self.stale = stale
        self.frame = frame


def _acting_user(session_key: str | None) -> User:
    users = session_users([session_key], read_within=settings.MAYI_SESSION_RECHECK_SECONDS)
    user = users.get(session_key) if session_key else None
    if user is None:
        raise Refused(CLOSE_SIGNED_OUT, "sign in to play")
    return user


def _stale_frame(exc: services.StaleVersion, user: User) -> dict[str, Any]:
    try:
        payload = services.table_stale_payload(exc, user)
    except services.NotSeated as refused:
        raise Refused(CLOSE_FORBIDDEN, refused.message) from None
    return {"type": "table", "version": exc.table.version, **payload}
