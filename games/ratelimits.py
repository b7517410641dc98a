"""Rate limits: how many times one user or one address may do a thing in a period.

Counters live in the cache (Redis in production, shared by every process), one per fixed window
of the period, so nothing needs cleaning up. With the cache down the limits are off (the cache
degrades to misses, mayi_site/cache.py): better an unthrottled minute than a site that refuses
everyone.

Use:

- in a service-free edge (an API view, a page, a websocket consumer)::

      from games.ratelimits import check, RateLimited
      check("chat", user=request.user)       # raises RateLimited (429 "rate_limited")

- or as a decorator of a view (API or page)::

      @ratelimited("table_create")           # per signed-in user, else per address
      @ratelimited("signup", by="ip")        # per address only

The API answers RateLimited as ``429 {"error": {"code": "rate_limited", ...}}`` with
``Retry-After``; pages get ``templates/429.html`` (mayi_site/middleware.py does both).
Rates are ``settings.MAYI_RATE_LIMITS`` (``"<count>/<seconds>"``), each overridable with an
environment variable ``MAYI_RATE_<SCOPE>`` (``MAYI_RATE_CHAT=20/60``); ``MAYI_RATE_LIMITS_ENABLED=0``
turns them all off.
"""

from __future__ import annotations

import functools
import inspect
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from games.services.errors import ServiceError

F = TypeVar("F", bound=Callable[..., Any])

# The counters' key prefix. Every process of the site must use the same one, or each daphne
# process (and each restart) would count on its own and a client spread over them by the proxy
# would get the limit once per process. Tests renew it (reset()) so that counters never leak
# from one test to the next, without flushing a cache that may share its Redis db with the
# Celery broker.
_generation = "0"


class RateLimited(ServiceError):
    status = 429
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        count, _, seconds = text.partition("/")
        return cls(int(count), int(seconds or 60))


def rate_for(scope: str) -> Rate:
    rates: dict[str, str] = getattr(settings, "MAYI_RATE_LIMITS", {})
    if scope not in rates:
        raise KeyError(f"no rate limit named {scope!r} in settings.MAYI_RATE_LIMITS")
    return Rate.parse(rates[scope])


def client_address(request: HttpRequest) -> str:
    """The caller's address. Behind a proxy, set it into REMOTE_ADDR there (daphne's
    ``--proxy-headers``): a client-supplied X-Forwarded-For is never trusted here."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def hit(scope: str, ident: str, *, rate: Rate | None = None, now: float | None = None) -> int:
    """Count one more for ``ident`` in ``scope``; return the seconds to wait if over the limit,
    else 0."""
    if not getattr(settings, "MAYI_RATE_LIMITS_ENABLED", True):
        return 0
    rate = rate or rate_for(scope)
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    key = f"mayi:rl:{_generation}:{scope}:{ident}:{window}"
    # add() then incr(): the first hit of a window creates the counter with its expiry.
    if cache.add(key, 1, timeout=rate.seconds + 1):
        used = 1
    else:
        try:
            used = cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.add(key, 1, timeout=rate.seconds + 1)
            used = 1
    if used > rate.count:
        return max(1, int((window + 1) * rate.seconds - now))
    return 0


def check(
    scope: str,
    *,
    user: Any = None,
    request: HttpRequest | None = None,
    by: Literal["user", "ip"] = "user",
) -> None:
    """Raise RateLimited when the user (or, signed out or ``by="ip"``, the address) went over
    the scope's rate."""
    ident = None
    if by == "user" and user is not None and getattr(user, "is_authenticated", False):
        ident = f"u{user.pk}"
    elif request is not None:
        ident = f"a{client_address(request)}"
    if ident is None:
        return
    wait = hit(scope, ident)
    if wait:
        raise RateLimited(f"too many requests: try again in {wait} s", retry_after=wait)


def ratelimited(
    scope: str, *, by: Literal["user", "ip"] = "user", methods: tuple = ("POST",)
) -> Callable[[F], F]:
    """Decorate a view (a Django page or a ninja operation) to count its ``methods`` calls.

    For ninja, put it below the ``@api.post(...)`` line; ``request.auth`` is the user there.
    """

    def decorate(view: F) -> F:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method in methods:
                user = getattr(request, "auth", None) or getattr(request, "user", None)
                check(scope, user=user, request=request, by=by)
            return view(request, *args, **kwargs)

        # ninja reads the view's parameters from its signature and evaluates string
        # annotations in the function's module: give it the view's own, already evaluated.
        wrapper.__signature__ = inspect.signature(view, eval_str=True)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def reset() -> None:
    """Start every counter afresh (tests)."""
    global _generation
    _generation = secrets.token_hex(4)
