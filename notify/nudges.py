"""Nudges: a player whose opponent has held the turn for an hour or more may remind them, once
per table per day. The nudge reaches the nudged player alone (a push, or without a browser
subscribed an email), after the commit, from a Celery task; nobody else at the table is told,
and a player who blocked the nudger never gets it (social.selectors.has_blocked).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.services import (
    Conflict,
    NotSeated,
    ServiceError,
    TableNotFound,
    send_task_after_commit,
)
from mayi_site import metrics
from social.selectors import has_blocked

from . import services
from .models import Nudge

logger = logging.getLogger("notify")

DELIVER_NUDGE = "notify.tasks.deliver_nudge"


class NudgeTooEarly(ServiceError):
    status = 400
    code = "nudge_too_early"


class NudgeNotWaiting(ServiceError):
    status = 409
    code = "nudge_not_waiting"


class NudgeLimit(ServiceError):
    status = 429
    code = "nudge_limit"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Nudged:
    nudge: Nudge
    seat: int


def _hours(seconds: float) -> str:
    minutes = max(1, int(seconds // 60))
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d}" if minutes % 60 else f"{minutes // 60} h"


def nudge_send(*, table_id: int, user: User, now: datetime | None = None) -> Nudged:
    """``user`` nudges the player whose turn keeps table ``table_id`` waiting."""
    now = now or timezone.now()
    with transaction.atomic():
        # The nudger's row, locked: two nudges of theirs at once are counted one after the
        # other (the table's own lock is left to the moves).
        User.objects.select_for_update().filter(pk=user.pk).first()
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise TableNotFound("there is no such table")
        seats = list(Seat.objects.filter(table=table).select_related("user"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotSeated("you have no seat at this table")
        if mine.expelled:
            raise NotSeated("you were expelled; a bot plays this seat", code="expelled")
        if table.status == Table.Status.OPEN:
            raise Conflict("the game has not started yet", code="game_not_started")
        if table.status != Table.Status.PLAYING or table.state is None:
            raise Conflict(f"the game is {table.status}", code="game_finished")
        running = engine.clock_seat(table.state)
        seat = next((s for s in seats if s.position == running), None)
        if seat is None or seat.user is None or seat.played_by_bot or seat.user_id == user.pk:
            raise NudgeNotWaiting("the game waits on nobody else's turn now")
        held = (now - table.turn_started).total_seconds() if table.turn_started else 0.0
        if held < settings.MAYI_NUDGE_AFTER_SECONDS:
            wait = settings.MAYI_NUDGE_AFTER_SECONDS - max(0.0, held)
            raise NudgeTooEarly(
                f"{seat.user.get_username()} has had the turn for {_hours(max(0.0, held))}: "
                f"a nudge waits until an hour has gone by (in {_hours(wait)})"
            )
        since = now - timedelta(seconds=settings.MAYI_NUDGE_EVERY_SECONDS)
        last = (
            Nudge.objects.filter(table=table, nudger=user, created__gt=since)
            .order_by("-created")
            .first()
        )
        if last is not None:
            wait = (last.created - since).total_seconds()
            raise NudgeLimit(
                f"you nudged at this table {_hours((now - last.created).total_seconds())} ago: "
                f"one nudge a day (again in {_hours(wait)})",
                retry_after=max(1, int(wait + 0.999)),
            )
        nudge = Nudge.objects.create(
            table=table, nudger=user, nudged=seat.user, seat=seat.position, created=now
        )
        send_task_after_commit(
            DELIVER_NUDGE,
            (nudge.pk,),
            queue=settings.MAYI_MAIL_QUEUE,
            what=f"nudge {nudge.pk}",
        )
    return Nudged(nudge, seat.position)


def nudge_deliver(*, nudge_id: int) -> str:
    """Bring one nudge to its player: a push to their browsers, or without one an email."""
    nudge = Nudge.objects.select_related("nudger", "nudged", "table").filter(pk=nudge_id).first()
    if nudge is None or nudge.outcome:
        return "gone" if nudge is None else nudge.outcome
    outcome = _deliver(nudge)
    Nudge.objects.filter(pk=nudge.pk, outcome="").update(outcome=outcome)
    return outcome


def _deliver(nudge: Nudge) -> str:
    nudged, nudger, table = nudge.nudged, nudge.nudger, nudge.table
    if has_blocked(nudged, nudger):
        return "blocked"  # silent: the nudger is never told
    if not services.prefs_of(nudged).push_nudge:
        return "turned off"
    if table.status != Table.Status.PLAYING or table.state is None:
        return "game over"
    if engine.clock_seat(table.state) != nudge.seat:
        return "turn over"
    name = nudger.get_username()
    held = ""
    if table.turn_started is not None:
        held = f" for {_hours((timezone.now() - table.turn_started).total_seconds())}"
    sentence = f"{name} nudges you: it has been your turn at table #{table.pk}{held}."
    if services.push_subscriptions_of(nudged):
        result = services.push_to_user(
            user_id=nudged.pk,
            kind=services.NUDGE,
            key=f"nudge:{nudge.pk}",
            payload={
                "title": f"{name} nudges you",
                "body": sentence,
                "url": services.table_url(table.pk),
                "tag": f"mayi-{table.pk}-nudge",
                "kind": services.NUDGE,
            },
            table_id=table.pk,
        )
        if result.startswith("delivered to") and not result.endswith(" 0"):
            return "push"
        if result == "looking":
            return "looking"
    if not nudged.email:
        return "no way"
    link = settings.MAYI_SITE_URL + reverse("table", args=[table.pk])
    # Counted sent once the server took it; a failure raises to the task (and counts).
    try:
        _send_nudge_mail(table.pk, name, sentence, link, nudged.email)
    except Exception:
        metrics.count_email("nudge", ok=False)
        raise
    metrics.count_email("nudge", ok=True)
    return "email"


def _send_nudge_mail(table_id: int, name: str, sentence: str, link: str, address: str) -> None:
    send_mail(
        f"May I? table #{table_id}: {name} nudges you",
        f"{sentence}\n\nOpen the game: {link}\n\n"
        "When your clock runs out a bot plays your turn and you get a strike.\n"
        f"Notification settings: {settings.MAYI_SITE_URL}{reverse('profile')}#push\n",
        settings.DEFAULT_FROM_EMAIL,
        [address],
    )
