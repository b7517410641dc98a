"""Rate limits: how many times one user or one address may do a thing in a period.

**No client ever gets more than the limit in any period's length**, wherever the period starts:
the counters are a sliding window of ``BUCKETS`` sub-windows. A rate of N per T seconds keeps a
counter per T/BUCKETS slice; a hit is admitted when, counting it, the current slice and the
BUCKETS before it hold at most N. Any T seconds lie inside those BUCKETS + 1 slices, so no T
seconds ever hold more than N admitted hits (fixed windows let a client send 2N across a window's
edge: 1,300 refused actions in 13.8 s across a minute boundary, none 429). The price is that a
hit may be counted a slice (T/BUCKETS) longer than T. A refused hit is not counted (the slice
is incremented first, so two processes racing for the last place both see the other, and given
back on refusal): a client that keeps knocking is let in as soon as its oldest hits age out,
and ``Retry-After`` says exactly when.

Counters live in the cache (Redis in production, shared by every process); each slice's
expires by itself. With the cache down the limits are off (the cache degrades to misses,
mayi_site/cache.py): better an unthrottled minute than a site that refuses everyone.

Use:

- in an edge (an API view, a page, a websocket consumer)::

      from mayi_site.ratelimits import check, RateLimited
      check("chat", user=request.user)       # raises RateLimited (429 "rate_limited")

- or as a decorator of a view (API or page)::

      @ratelimited("table_create")           # per signed-in user, else per address
      @ratelimited("signup_ip", by="ip")     # per address only

The API answers RateLimited as ``429 {"error": {"code": "rate_limited", ...}}`` with
``Retry-After``; pages get a 429 page saying when to try again (mayi_site/middleware.py does
both). Rates are ``settings.MAYI_RATE_LIMITS`` (``"<count>/<seconds>"``, or ``/m``, ``/h``,
``/d``), each overridable with ``MAYI_RATE_<SCOPE>`` (``MAYI_RATE_CHAT=20/60``);
``MAYI_RATE_LIMITS_ENABLED=0`` turns them all off. Each refusal counts in the
``mayi_rate_limited_total{scope}`` metric.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from games.services import ServiceError
from mayi_site import metrics

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

    def __init__(self, message: str, *, retry_after: int, reason: str = "") -> None:
        super().__init__(message)
        self.retry_after = retry_after
        # What was refused, without the wait ("you are sending messages too fast"): pages
        # say it in their own words.
        self.reason = reason or message


UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
BUCKETS = 10


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"20/60"`` (per 60 s), ``"10/m"``, ``"10/h"``, ``"5/d"``, or ``"20"`` (a minute)."""
        count, _, period = text.strip().partition("/")
        period = period.strip() or "60"
        seconds = UNITS[period] if period in UNITS else int(period)
        if int(count) < 0 or seconds <= 0:
            raise ValueError(f"bad rate {text!r}")
        return cls(int(count), seconds)


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
    """Count one more for ``ident`` in ``scope``; return the seconds to wait if that would go
    over the limit (then nothing is counted), else 0."""
    if not getattr(settings, "MAYI_RATE_LIMITS_ENABLED", True):
        return 0
    rate = rate or rate_for(scope)
    now = time.time() if now is None else now
    width = rate.seconds / BUCKETS
    current = int(now // width)
    prefix = f"mayi:rl:{_generation}:{scope}:{ident}:"
    key = f"{prefix}{current}"
    # Each slice outlives the window it may still be counted in.
    timeout = rate.seconds + int(width) + 2
    # add() then incr(): the first hit of a slice creates its counter with its expiry.
    if cache.add(key, 1, timeout=timeout):
        mine = 1
    else:
        try:
            mine = cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.add(key, 1, timeout=timeout)
            mine = 1
    older = [current - n for n in range(BUCKETS, 0, -1)]  # oldest first
    counts = cache.get_many([f"{prefix}{n}" for n in older])
    used = [int(counts.get(f"{prefix}{n}", 0)) for n in older]
    if mine + sum(used) <= rate.count:
        return 0
    # Over: give the place back, and wait until enough of the oldest hits age out (a slice
    # leaves the window when the slice BUCKETS + 1 after it begins).
    with contextlib.suppress(ValueError):
        cache.decr(key)
    excess = mine + sum(used) - rate.count
    for n, count in zip(older, used, strict=True):
        excess -= count
        if excess <= 0:
            return max(1, math.ceil((n + BUCKETS + 1) * width - now))
    return max(1, math.ceil((current + BUCKETS + 1) * width - now))


def check(
    scope: str,
    *,
    user: Any = None,
    request: HttpRequest | None = None,
    by: Literal["user", "ip"] = "user",
    message: str = "too many requests",
) -> None:
    """Raise RateLimited when the user (or, signed out or ``by="ip"``, the address) went over
    the scope's rate; its message is ``message`` and when to try again."""
    ident = None
    if by == "user" and user is not None and getattr(user, "is_authenticated", False):
        ident = f"u{user.pk}"
    elif request is not None:
        ident = f"a{client_address(request)}"
    if ident is None:
        return
    wait = hit(scope, ident)
    if wait:
        metrics.count_rate_limited(scope)
        raise RateLimited(
            f"{message}: try again in {duration(wait)}", retry_after=wait, reason=message
        )


def duration(seconds: int) -> str:
    """``40 seconds``, ``29 minutes``, ``2 hours`` (rounded up): for people, not 1726 s."""
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    if seconds < 90 * 60:
        minutes = math.ceil(seconds / 60)
        return f"{minutes} minutes"
    hours = math.ceil(seconds / 3600)
    return f"{hours} hours"


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
        setattr(wrapper, "__signature__", inspect.signature(view, eval_str=True))  # noqa: B010
        # functools.wraps keeps the view's name and signature: the same callable to its callers.
        return cast(F, wrapper)

    return decorate


def reset() -> None:
    """Start every counter afresh (tests)."""
    global _generation
    _generation = secrets.token_hex(4)
