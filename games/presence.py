"""Who is online: a websocket connected, or a request, within MAYI_ONLINE_SECONDS.

Kept in the cache (Redis in production, shared by every process) with a time to live, so
nothing needs cleaning up. ``mark_online(user_id)`` is called by the middleware below for every
signed-in request and by the websocket consumer; ``is_online(user_id)`` by the reminders.
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


def _key(user_id: int) -> str:
    return f"mayi:online:{user_id}"


def mark_online(user_id: int) -> None:
    now = time.monotonic()
    if now - _marked.get(user_id, -1e9) < min(REMARK_SECONDS, settings.MAYI_ONLINE_SECONDS / 2):
        return
    _marked[user_id] = now
    if len(_marked) > 100_000:  # a bound, not a cache policy: forget and re-mark
        _marked.clear()
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
    cache.delete(_key(user_id))


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
    try:
        found = cache.get_many([_key(u) for u in user_ids])
    except Exception:
        logger.warning("could not read who is online", exc_info=True)
        return None
    return {u: bool(found.get(_key(u))) for u in user_ids}


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
