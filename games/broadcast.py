"""The one way out after a commit: tell a table's sockets that it changed.

Imports only Channels (asgiref, its base) and nothing of the project, so the services can call
it from ``transaction.on_commit`` and anything may import it without a cycle. Each process's
hub (``games/hub.py``) listens to these groups for its sockets, which build their frames themselves
(``games/live.py``): the group message says only "table X is now at version N" (and when it was
committed), so no view travels through the channel layer and a frame can only ever hold what
its own consumer read for its own user from the database.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger("games.live")


def group_name(table_id: int) -> str:
    """The channel-layer group of table ``table_id``: each process's hub is in it while a socket
    of the table is open there. Its messages name the table (``"table": table_id``)."""
    return f"table-{table_id}"


# The group every process's hub joins once (games/hub.py): the messages about one session or one
# user go there, naming it, instead of to a group of its own that each socket had to join.
SOCKETS_GROUP = "table-sockets"


def user_closed_message(user_id: int, reason: str) -> dict[str, Any]:
    """Close every table socket of the user now (a suspension or a ban: moderation/live.py);
    sent to ``SOCKETS_GROUP``."""
    return {"type": "user.closed", "user": user_id, "reason": reason}


# (table id, the socket's name, its user): set by a request that answers its move with the new
# view (games/api.py), read by the broadcast of its commit in the same thread.
_answering: contextvars.ContextVar[tuple[int, str, int] | None] = contextvars.ContextVar(
    "answering", default=None
)
_CLIENT = re.compile(r"[A-Za-z0-9_-]{8,64}")


def valid_client(name: str | None) -> bool:
    """Whether ``name`` may name a page's socket (8 to 64 letters, digits, ``-`` or ``_``)."""
    return name is not None and _CLIENT.fullmatch(name) is not None


@contextmanager
def answering(table_id: int, client: str | None, user_id: int) -> Iterator[None]:
    """The change committed inside answers the page whose socket is ``client`` (its ``?client=``)
    with the new view: its message names that socket, which gets no frame of the version."""
    if not valid_client(client):
        yield
        return
    assert client is not None
    token = _answering.set((table_id, client, user_id))
    try:
        yield
    finally:
        _answering.reset(token)


def table_changed(table_id: int, version: int) -> None:
    """Tell every socket of the table that ``version`` committed. Called from on_commit.

    ``committed_at`` (epoch seconds, stamped here, right after the commit) lets a client or
    bench/fanout.py measure the delay to its frame. A lost broadcast costs a client only
    freshness (it re-syncs by version on its next frame, reconnect or sync), never correctness,
    so a channel layer failure is logged and never fails the request that committed.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "table.changed",
        "table": table_id,
        "version": version,
        "committed_at": time.time(),
    }
    who = _answering.get()
    if who is not None and who[0] == table_id:
        message["answered"] = {"client": who[1], "user": who[2]}
    loop = server_loop()
    if loop is not None:
        # In daphne: hand the send to the server's event loop and answer the request at once,
        # instead of holding this request thread until the layer has taken the message.
        future = asyncio.run_coroutine_threadsafe(
            layer.group_send(group_name(table_id), message), loop
        )
        future.add_done_callback(lambda done: _log_failure(done, table_id, version))
        return
    blocking = getattr(layer, "group_send_blocking", None)
    if blocking is not None:
        # Outside a server (a Celery task): Redis' layer publishes from this thread
        # (mayi_site/channel_layer.py; it logs and drops a failure itself), where
        # async_to_sync made a new event loop, and so a new Redis connection, every time.
        blocking(group_name(table_id), message)
        return
    if _on_a_loop():
        logger.warning(
            "table %s version %s not broadcast: called on a running event loop", table_id, version
        )
        return
    try:
        async_to_sync(layer.group_send)(group_name(table_id), message)
    except Exception:
        logger.exception("could not broadcast table %s version %s", table_id, version)


def session_ended(session_key: str | None) -> None:
    """Close a session's sockets now (it logged out), not at their table's next change."""
    layer = get_channel_layer()
    if not session_key or layer is None:
        return
    if _on_a_loop():
        logger.warning("a logged-out session's sockets not closed: called on a running loop")
        return
    try:
        async_to_sync(layer.group_send)(
            SOCKETS_GROUP, {"type": "session.ended", "session": session_key}
        )
    except Exception:
        logger.exception("could not close the sockets of a session that logged out")


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_out``: close this session's sockets (connected in games/apps.py)."""
    session_ended(getattr(getattr(request, "session", None), "session_key", None))


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of the ASGI server when called from one of its sync threads (a
    request's or a consumer's), else None (a Celery worker, a test, a management command).

    asgiref records it for every thread it runs sync code in (``async_to_sync`` uses it too).
    """
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    pid = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None)
    if loop is None or pid != os.getpid() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None  # on the loop itself: callers use async_to_sync's own error then


def _on_a_loop() -> bool:
    """Whether this thread is running an event loop that is no server's (``server_loop`` found
    none): sync code there, such as a browser test's own changes between the steps of
    Playwright's sync API, whose loop runs in the test's thread. async_to_sync cannot send from
    it, and blocking would stall that loop; the change is committed all the same, and its
    sockets catch up on their next frame, reconnect or sync. Expected, so no error and no
    traceback: a warning, in case production code ever calls a service from a coroutine."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _log_failure(done: concurrent.futures.Future, table_id: int, version: int) -> None:
    if not done.cancelled() and done.exception() is not None:
        logger.error(
            "could not broadcast table %s version %s",
            table_id,
            version,
            exc_info=done.exception(),
        )
