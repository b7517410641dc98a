"""Telling players their next table is ready: by email and by web push after the pairing
commits (the lobby shows it from the tables themselves: tournaments/templatetags/
tournaments.py). The push goes out from a Celery task on the mail queue, through the notify
app's sender (once per player and table, never while they look at the table)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import timezone

from accounts.mail import send_later
from accounts.models import Profile
from games.models import Seat, Table
from games.services import send_task_after_commit
from mayi_site.timezones import zone_of_user, zoned
from notify.services import push_to_user
from tournaments.models import Round, RoundTable, Tournament

logger = logging.getLogger("tournaments")

PUSH_READY = "tournaments.tasks.push_tables_ready"
PUSH_KIND = "tournament"


def notify_tables_ready(
    *, tournament: Tournament, round_: Round, tables: Sequence[RoundTable]
) -> None:
    """An email to each seated player with an address who takes turn emails, sent once the
    pairing's transaction commits (none if it rolls back)."""
    table_of = {rt.table_id: rt for rt in tables}
    seats = Seat.objects.filter(
        table_id__in=list(table_of), is_bot=False, user__isnull=False
    ).select_related("user")
    wanted = {
        p.user_id: p.email_turn
        for p in Profile.objects.filter(user_id__in=[s.user_id for s in seats])
    }
    standings = settings.MAYI_SITE_URL + reverse("tournament", args=[tournament.pk])
    for seat in seats:
        user = seat.user
        if user is None or not user.email or not wanted.get(user.pk, True):
            continue
        link = settings.MAYI_SITE_URL + reverse("table", args=[seat.table_id])
        # The player's own zone, named: the email is read wherever they are.
        with timezone.override(zone_of_user(user)):
            deadline = zoned(round_.deadline)
        body = (
            f"Round {round_.number} of {tournament.rounds} of {tournament.name} has started: "
            f"your table is ready.\n\nPlay: {link}\n"
            f"The round's tables have until {deadline}; a game "
            "still being played then is finished by the bots.\n\n"
            f"Standings: {standings}\n"
            f"Email settings: {settings.MAYI_SITE_URL}{reverse('profile')}\n"
        )
        subject = f"May I? {tournament.name}: your round {round_.number} table is ready"
        send_later(
            EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]),
            kind="tournament",
        )
    # A push is a courtesy: a broker that is down loses it, never the pairing.
    send_task_after_commit(
        PUSH_READY,
        (round_.pk,),
        queue=settings.MAYI_MAIL_QUEUE,
        what=f"the pushes of round {round_.pk}",
    )


def round_push_ready(*, round_id: int) -> dict[str, str]:
    """Push "your table is ready" to each person seated in the round whose table is still
    being played: the words of the tournament, the round and the table, never a card."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None:
        return {}
    tournament = round_.tournament
    seats = Seat.objects.filter(
        table__tournament_table__round=round_,
        table__status=Table.Status.PLAYING,
        is_bot=False,
        expelled=False,
        user__isnull=False,
    ).values_list("table_id", "user_id")
    results: dict[str, str] = {}
    for table_id, user_id in seats:
        payload: dict[str, Any] = {
            "title": "Your tournament table is ready",
            "body": f"{tournament.name}, round {round_.number} of {tournament.rounds}: "
            f"table #{table_id} waits for you.",
            "url": reverse("table", args=[table_id]),
            "tag": f"mayi-{table_id}",
            "kind": PUSH_KIND,
        }
        key = f"tournament-table:{table_id}"
        results[f"{key}:{user_id}"] = push_to_user(
            user_id=user_id, kind=PUSH_KIND, key=key, payload=payload, table_id=table_id
        )
    return results
