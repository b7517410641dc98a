"""The daily digest: one email a day, at the local hour the player chose, with the games that
wait on them (and the time left on each clock), the games that ended since the last digest
(place, score, rating change) and the invitations they may still answer. Nothing is sent when
there is nothing to say. Plain text and HTML, with one-click unsubscribe (RFC 8058).

A player's digest is claimed per local day with a conditional update (``digest_day``): the
hourly beat, ``manage.py send_digests`` and a second worker never send two for one day.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games import engine
from games.models import Seat, Table
from games.services import MAY_I_OPEN, tables_waiting_on, waiting_mark
from mayi_site import metrics
from social.selectors import invitations_for
from stats.models import GameResult
from stats.ratings import display

from .models import NotifyPrefs

logger = logging.getLogger("notify.digest")

UNSUBSCRIBE_SALT = "notify.digest.unsubscribe"
# Games ended in the day before a first digest are in it (there was no "last" one).
FIRST_LOOKBACK = timedelta(days=1)


@dataclass
class Waiting:
    table_id: int
    what: str  # "your turn", "May I? open"
    left: str  # "5 h 12 min left", or ""
    url: str


@dataclass
class Ended:
    table_id: int
    place: int
    players: int
    score: int
    rating_change: int | None
    url: str


@dataclass
class Invited:
    table_id: int
    sender: str
    url: str


@dataclass
class Digest:
    user: User
    day: date
    zone: str
    waiting: list[Waiting] = field(default_factory=list)
    ended: list[Ended] = field(default_factory=list)
    invitations: list[Invited] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.waiting or self.ended or self.invitations)


def zone_of(profile: Profile | None) -> ZoneInfo:
    try:
        return ZoneInfo((profile.time_zone if profile else "") or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def digest_wanted(prefs: NotifyPrefs | None, user: User) -> bool:
    """On by default for a player with an email address; their own choice otherwise."""
    if not user.email or not user.is_active:
        return False
    if prefs is None or prefs.digest_on is None:
        return True
    return bool(prefs.digest_on)


def unsubscribe_token(user: User) -> str:
    """A signed token that turns this user's digest off, valid signed out (no expiry: an old
    email's link must still work)."""
    return signing.dumps({"u": user.pk, "k": "digest"}, salt=UNSUBSCRIBE_SALT)


def user_of_token(token: str) -> User | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if (
        not isinstance(data, dict)
        or data.get("k") != "digest"
        or not isinstance(data.get("u"), int)
    ):
        return None
    return User.objects.filter(pk=int(data["u"])).first()


def digest_unsubscribe(*, user: User) -> None:
    prefs, _ = NotifyPrefs.objects.get_or_create(user=user)
    prefs.digest_on = False
    prefs.save(update_fields=["digest_on"])


def _left(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return ""
    minutes = max(0, int((deadline - now).total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"{days} d {hours} h left"
    return f"{hours} h {minutes:02d} min left" if hours else f"{minutes} min left"


def digest_of(user: User, now: datetime, since: datetime | None) -> Digest:
    """What the user's digest says now (``since``: the last digest's time)."""
    profile = Profile.objects.filter(user=user).first()
    zone = zone_of(profile)
    digest = Digest(user=user, day=now.astimezone(zone).date(), zone=str(zone))
    ids = tables_waiting_on(user=user)
    seats = {
        s.table_id: s
        for s in Seat.objects.filter(user=user, table_id__in=ids).select_related("table")
    }
    for table_id in ids:
        seat = seats.get(table_id)
        if seat is None:
            continue
        table = seat.table
        mark = waiting_mark(table, seat.position)
        mine = engine.clock_seat(table.state) == seat.position
        deadline = table.turn_deadline if mine else table.window_deadline
        digest.waiting.append(
            Waiting(
                table_id,
                "“May I?” open" if mark == MAY_I_OPEN else "your turn",
                _left(deadline, now),
                _url(reverse("table", args=[table_id])),
            )
        )
    after = since or (now - FIRST_LOOKBACK)
    results = GameResult.objects.filter(
        user=user, finished__gt=after, finished__lte=now, by_bot=False
    ).exclude(table__status=Table.Status.ABORTED)
    for r in results.order_by("finished"):
        change = None
        if r.rated and r.mu_before is not None and r.mu_after is not None:
            change = display(r.mu_after) - display(r.mu_before)
        digest.ended.append(
            Ended(
                r.table_id,
                r.place,
                r.players,
                r.total,
                change,
                _url(reverse("table", args=[r.table_id])),
            )
        )
    for invitation in invitations_for(user):
        digest.invitations.append(
            Invited(
                invitation.table_id,
                invitation.sender.get_username(),
                _url(reverse("table", args=[invitation.table_id])),
            )
        )
    return digest


def _url(path: str) -> str:
    return settings.MAYI_SITE_URL + path


def digest_message(digest: Digest) -> EmailMultiAlternatives:
    user = digest.user
    token = unsubscribe_token(user)
    unsubscribe = _url(reverse("digest_unsubscribe", args=[token]))
    context = {
        "digest": digest,
        "user": user,
        "unsubscribe": unsubscribe,
        "profile": _url(reverse("profile")) + "#digest",
        "site": settings.MAYI_SITE_URL,
    }
    count = len(digest.waiting)
    subject = (
        f"May I?: {count} game{'s' if count != 1 else ''} wait{'s' if count == 1 else ''} on you"
        if count
        else "May I?: your daily digest"
    )
    message = EmailMultiAlternatives(
        subject,
        render_to_string("notify/digest.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
        headers={
            # RFC 8058: a mail client's "Unsubscribe" POSTs List-Unsubscribe=One-Click there.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(render_to_string("notify/digest.html", context), "text/html")
    return message


def _due_users(now: datetime, every: bool) -> list[tuple[User, NotifyPrefs | None]]:
    users = (
        User.objects.filter(is_active=True)
        .exclude(email="")
        .exclude(notify_prefs__digest_on=False)
        .select_related("notify_prefs", "profile")
        .order_by("pk")
    )
    found = []
    for user in users:
        prefs = getattr(user, "notify_prefs", None) if _has(user, "notify_prefs") else None
        if not digest_wanted(prefs, user):
            continue
        profile = user.profile if _has(user, "profile") else None
        local = now.astimezone(zone_of(profile))
        hour = prefs.digest_hour if prefs is not None else NotifyPrefs().digest_hour
        if every or local.hour == hour:
            found.append((user, prefs))
    return found


def _has(user: User, name: str) -> bool:
    try:
        getattr(user, name)
    except Exception:
        return False
    return True


def digests_send(*, now: datetime | None = None, every: bool = False) -> dict[str, int]:
    """Send the digests due now (``every``: to every user whose digest is on, whatever the
    hour). Each user once per local day. Returns counts: sent, empty, already."""
    now = now or timezone.now()
    counts = {"sent": 0, "empty": 0, "already": 0}
    for user, prefs in _due_users(now, every):
        profile = Profile.objects.filter(user=user).first()
        day = now.astimezone(zone_of(profile)).date()
        if prefs is None:
            prefs, _ = NotifyPrefs.objects.get_or_create(user=user)
        # Claim the day: only one run moves digest_day to today.
        won = (
            NotifyPrefs.objects.filter(pk=prefs.pk)
            .filter(Q(digest_day__isnull=True) | ~Q(digest_day=day))
            .update(digest_day=day)
        )
        if not won:
            counts["already"] += 1
            continue
        digest = digest_of(user, now, prefs.digest_sent)
        if digest.empty:
            counts["empty"] += 1
            continue
        try:
            digest_message(digest).send()
        except Exception:
            metrics.count_email("digest", ok=False)
            # Not sent: give the day back, so the next hour's run tries again.
            NotifyPrefs.objects.filter(pk=prefs.pk, digest_day=day).update(
                digest_day=prefs.digest_day
            )
            logger.exception("could not send the digest of user %s", user.pk)
            continue
        metrics.count_email("digest", ok=True)
        NotifyPrefs.objects.filter(pk=prefs.pk).update(digest_sent=now)
        counts["sent"] += 1
    return counts


def digest_context(user: User) -> dict[str, Any]:
    """The profile's digest form."""
    prefs = NotifyPrefs.objects.filter(user=user).first()
    return {
        "digest_on": digest_wanted(prefs, user) if user.email else False,
        "digest_hour": prefs.digest_hour if prefs is not None else NotifyPrefs().digest_hour,
        "has_email": bool(user.email),
        "hours": list(range(24)),
    }
