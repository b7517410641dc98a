"""Who is online: a websocket connected, or a request, within MAYI_ONLINE_SECONDS.

Kept in the cache (Redis in production, shared by every process) with a time to live, so
nothing needs cleaning up. ``mark_online(user_id)`` is called by the middleware below for every
signed-in request and by the websocket consumer; ``is_online(user_id)`` by the reminders
(always read afresh). ``online_many``, the seats' dots of a payload or a frame, answers from
what this process learnt in the last ``KNOWN_SECONDS`` (its own marks included), so another
process's mark or sign-out shows that much later.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("games.presence")

# Per process: when we last wrote each user's mark, so a busy player costs one cache write
# per minute, not one per request.
_marked: dict[int, float] = {}
REMARK_SECONDS = 60
# Per process: what the cache last said of each user (or what this process last wrote), and
# when. A table's payload and its sockets' frames read the seats' marks after every change: the
# cache's MGET was 11% of daphne's CPU per move (bench/fanout.py, docs/PERFORMANCE.md). A mark
# is minutes wide (MAYI_ONLINE_SECONDS, written once a minute), so an answer this many seconds
# old is as good as a fresh one.
KNOWN_SECONDS = 10.0
_known: dict[int, tuple[bool, float]] = {}


def _key(user_id: int) -> str:
    return f"mayi:online:{user_id}"


def mark_online(user_id: int) -> None:
    now = time.monotonic()
    if now - _marked.get(user_id, -1e9) < min(REMARK_SECONDS, settings.MAYI_ONLINE_SECONDS / 2):
        return
    _marked[user_id] = now
    if len(_marked) > 100_000:  # a bound, not a cache policy: forget and re-mark
        _marked.clear()
    _remember(user_id, True, now)
    try:
        cache.set(_key(user_id), 1, timeout=settings.MAYI_ONLINE_SECONDS)
    except Exception:
        # A mark is a hint for reminders, never worth failing a request or a socket for
        # (mayi_site/cache.py already degrades for Redis; this covers any other backend).
        _marked.pop(user_id, None)
        logger.warning("could not mark user %s online", user_id, exc_info=True)


def mark_offline(user_id: int) -> None:
    """Forget the mark (for tests, and a sign-out)."""
    _marked.pop(user_id, None)
    _remember(user_id, False, time.monotonic())
    cache.delete(_key(user_id))


def forget_local() -> None:
    """Forget what this process knows of the marks (tests: the cache is emptied under it)."""
    _marked.clear()
    _known.clear()


def _remember(user_id: int, online: bool, now: float) -> None:
    if len(_known) > 100_000:  # a bound, as for _marked
        _known.clear()
    _known[user_id] = (online, now)


def is_online(user_id: int) -> bool:
    try:
        return bool(cache.get(_key(user_id)))
    except Exception:
        logger.warning("could not read whether user %s is online", user_id, exc_info=True)
        return False


def online_many(user_ids: list[int]) -> dict[int, bool] | None:
    """Who of ``user_ids`` is online, in one cache read; ``None`` when the cache cannot say."""
    if not user_ids:
        return {}
    now = time.monotonic()
    answer: dict[int, bool] = {}
    missing = []
    for u in user_ids:
        known = _known.get(u)
        if known is not None and now - known[1] < KNOWN_SECONDS:
            answer[u] = known[0]
        else:
            missing.append(u)
    if missing:
        try:
            found = cache.get_many([_key(u) for u in missing])
        except Exception:
            logger.warning("could not read who is online", exc_info=True)
            return None
        for u in missing:
            answer[u] = bool(found.get(_key(u)))
            _remember(u, answer[u], now)
    return {u: answer[u] for u in user_ids}


class PresenceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # After the view: an API token authenticates inside it.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            mark_online(user.pk)
        return response


# Which tables a user has open in a tab that is shown: no push about a table they are looking
# at. The table's socket says so (opened from a shown tab, a ``looking`` message, its pings);
# the mark lapses by itself when the tab goes quiet (a closed laptop sends no "hidden").
LOOKING_SECONDS = 120


def _looking_key(user_id: int, table_id: int) -> str:
    return f"mayi:looking:{user_id}:{table_id}"


def mark_looking(user_id: int, table_id: int, visible: bool) -> None:
    """The user's tab of ``table_id`` is shown (``visible``) or hidden or closed."""
    try:
        if visible:
            cache.set(_looking_key(user_id, table_id), 1, timeout=LOOKING_SECONDS)
        else:
            cache.delete(_looking_key(user_id, table_id))
    except Exception:
        # A hint for pushes only: never worth failing a socket for.
        logger.warning("could not mark user %s looking at %s", user_id, table_id, exc_info=True)


def is_looking(user_id: int, table_id: int) -> bool:
    """Has the user the table open in a tab that is shown, now?"""
    try:
        return bool(cache.get(_looking_key(user_id, table_id)))
    except Exception:
        logger.warning("could not read whether user %s looks at %s", user_id, table_id)
        return False


def looking_at(table_id: int, user_ids: list[int]) -> set[int]:
    """Who of ``user_ids`` has ``table_id`` open in a tab that is shown, now (one cache read;
    nobody when the cache cannot say)."""
    if not user_ids:
        return set()
    keys = {_looking_key(u, table_id): u for u in user_ids}
    try:
        found = cache.get_many(list(keys))
    except Exception:
        logger.warning("could not read who looks at table %s", table_id)
        return set()
    return {keys[k] for k, v in found.items() if v}
