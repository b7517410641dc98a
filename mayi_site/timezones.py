"""Every time the site shows, in the viewer's time zone (their profile's, an IANA name).

``TimeZoneMiddleware`` activates the signed-in user's zone for the request
(``django.utils.timezone.activate``): templates' ``|date``, forms and the admin then show local
times. The zone is read from the profile once and kept in the cache (``zone_of_user``), dropped
when the profile is saved. The JSON API is unaffected: it writes ISO 8601 in UTC, from aware
datetimes, whatever zone is active. Pages name the zone where a time is given (``zoned``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.apps import apps
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

logger = logging.getLogger("mayi_site.timezones")

# Written at sign-in and whenever the profile's zone is saved, so a page never reads the
# profile for it (the pages' query counts stay flat); a miss (an evicted key) reads it once.
CACHE_SECONDS = 30 * 24 * 3600
UTC_NAME = "UTC"
# A date and time as the members' messages give it: "04 Dec 2026, 08:00" (zoned names the zone).
DAY_TIME = "%d %b %Y, %H:%M"


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """The IANA zones a profile may choose, sorted ("UTC" among them)."""
    names = {n for n in available_timezones() if "/" in n or n == UTC_NAME}
    names -= {n for n in names if n.startswith(("Etc/", "SystemV/", "posix/", "right/"))}
    return tuple(sorted(names | {UTC_NAME}))


def valid_zone(name: str) -> bool:
    return name in zone_names()


def _key(user_id: int) -> str:
    return f"mayi:tz:{user_id}"


def zone_of_user(user: Any) -> str:
    """The user's zone name (cached; "UTC" for none, or a name no longer known)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return UTC_NAME
    return zone_of_user_id(user.pk)


def zone_of_user_id(user_id: int | None) -> str:
    """The zone of the user with this id (cached; read from the profile on a miss)."""
    if user_id is None:
        return UTC_NAME
    try:
        name = cache.get(_key(user_id))
    except Exception:
        name = None
    if name is None:
        # By name: accounts' AppConfig imports this module (the sign-in signal), before models.
        profile = apps.get_model("accounts", "Profile")
        name = (
            profile.objects.filter(user_id=user_id).values_list("time_zone", flat=True).first()
            or UTC_NAME
        )
        remember_zone(user_id, name)
    return name if valid_zone(name) else UTC_NAME


def forget_zone(user_id: int) -> None:
    """The profile's zone changed: read it afresh next time."""
    try:
        cache.delete(_key(user_id))
    except Exception:
        logger.warning("could not forget the time zone of user %s", user_id)


def remember_zone(user_id: int, name: str) -> None:
    """The profile's zone was saved: cache it as it is now."""
    try:
        cache.set(_key(user_id), name, timeout=CACHE_SECONDS)
    except Exception:
        logger.warning("could not cache the time zone of user %s", user_id)


def on_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: read the zone now, so the pages that follow find it cached."""
    forget_zone(user.pk)
    zone_of_user(user)


def zoned(moment: datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """``moment`` in the active zone, with the zone named: "2026-12-04 08:00 Europe/Paris"."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{local.strftime(fmt)} {timezone.get_current_timezone_name()}"


class TimeZoneMiddleware:
    """Activate the signed-in user's zone for this request (after the authentication)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The session's user id, not ``request.user``: evaluating the lazy user here would tie
        # the request into a reference cycle the handler cannot break (mayi_site/handlers.py
        # ``release``), and an API token's request has no session user anyway (its answers
        # are in UTC).
        session = getattr(request, "session", None)
        user_id = session.get(SESSION_KEY) if session is not None else None
        name = zone_of_user_id(_as_id(user_id))
        if name == UTC_NAME:
            timezone.deactivate()
        else:
            try:
                timezone.activate(ZoneInfo(name))
            except (ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def _as_id(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def context(request: HttpRequest) -> dict[str, str]:
    """``viewer_zone`` for the pages (base.html gives it to the scripts as data-time-zone)."""
    return {"viewer_zone": timezone.get_current_timezone_name()}
