"""Web push: subscriptions (one per browser, several per user) and the pushes themselves.

A push goes out from a Celery task after the commit of what it tells (never from a request):
``push_to_user`` records the event once per user (``PushSent``, unique by key), skips it when
the user turned that kind off or has the table open in a tab that is shown, then posts it to
each of their browsers; a browser whose push service answers 404 or 410 is forgotten. A
payload names a table, its round and what happened: never a card of anyone's hand.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatMessage
from games import engine, presence
from games.models import Seat, Table
from mayi_site import metrics
from social.models import Invitation
from social.selectors import has_blocked

from . import guard, push
from .models import NotifyPrefs, PushSent, PushSubscription

logger = logging.getLogger("notify")

TURN, MAYI, ENDED, MENTION, NUDGE = "turn", "mayi", "ended", "mention", "nudge"
PREF_OF_KIND = {
    TURN: "push_turn",
    MAYI: "push_mayi",
    ENDED: "push_ended",
    MENTION: "push_mention",
    NUDGE: "push_nudge",
}
KEEP_SENT = timedelta(days=30)
MENTION_RE = re.compile(r"(?<![\w@])@([\w.@+-]{1,150})")


@dataclass(frozen=True)
class Subscribed:
    subscription: PushSubscription
    created: bool


def prefs_of(user: User) -> NotifyPrefs:
    """The user's preferences (an unsaved row of defaults when they never changed them)."""
    found = NotifyPrefs.objects.filter(user=user).first()
    return found if found is not None else NotifyPrefs(user=user)


def push_subscribe(
    *, user: User, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> Subscribed:
    """Store the browser's subscription for ``user`` (raises guard.BadEndpoint). The same
    endpoint again is the same subscription (its keys refreshed); an endpoint another user
    had is that browser's, now signed in as ``user``: it moves to them."""
    guard.check_endpoint(endpoint)
    with transaction.atomic():
        found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if found is not None:
            created = found.user_id != user.pk
            found.user, found.p256dh, found.auth = user, p256dh, auth
            found.label = label[:120] or found.label
            found.save(update_fields=["user", "p256dh", "auth", "label"])
            return Subscribed(found, created)
        try:
            with transaction.atomic():
                made = PushSubscription.objects.create(
                    user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, label=label[:120]
                )
        except IntegrityError:
            # Two requests of one browser at once: the other one stored it.
            made = PushSubscription.objects.get(endpoint=endpoint)
            return Subscribed(made, False)
    return Subscribed(made, True)


def push_unsubscribe(*, user: User, endpoint: str) -> int:
    """Forget the user's subscription with this endpoint. How many were deleted (0 or 1)."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def push_subscriptions_of(user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user).order_by("created"))


def push_prefs_save(*, user: User, **flags: bool) -> NotifyPrefs:
    prefs, _ = NotifyPrefs.objects.get_or_create(user=user)
    for name, value in flags.items():
        if name in PREF_OF_KIND.values():
            setattr(prefs, name, bool(value))
    prefs.save()
    return prefs


def push_to_user(
    *,
    user_id: int,
    kind: str,
    key: str,
    payload: dict[str, Any],
    table_id: int | None = None,
    ttl: int | None = None,
) -> str:
    """Push one event to every browser of one user, once. Returns what happened."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return "no such user"
    # The cheap answers first, and no row for them: a turn of a player with no browser
    # subscribed, or with the table on screen, writes nothing.
    subscriptions = push_subscriptions_of(user)
    if not subscriptions:
        return "no subscription"
    pref = PREF_OF_KIND.get(kind)
    if pref is not None and not getattr(prefs_of(user), pref):
        return "turned off"
    if table_id is not None and presence.is_looking(user_id, table_id):
        return "looking"
    # Claim the event first: a second run of the task finds the row and pushes nothing.
    try:
        with transaction.atomic():
            sent = PushSent.objects.create(user=user, key=key, kind=kind)
    except IntegrityError:
        return "already sent"
    delivered = 0
    for sub in subscriptions:
        outcome = push.send(
            endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, payload=payload, ttl=ttl
        )
        metrics.count_push(kind, ok=outcome.delivered)
        if outcome.delivered:
            delivered += 1
            PushSubscription.objects.filter(pk=sub.pk).update(last_push=timezone.now())
        elif outcome.gone:
            sub.delete()
        else:
            logger.info("push %s to subscription %s: %s", key, sub.pk, outcome.note)
    PushSent.objects.filter(pk=sent.pk).update(delivered=delivered)
    return f"delivered to {delivered}"


def push_sent_prune(*, now: datetime | None = None) -> int:
    """Forget the records of pushes older than KEEP_SENT (they only stop a task delivered
    twice from pushing twice, which happens within minutes)."""
    now = now or timezone.now()
    deleted, _ = PushSent.objects.filter(created__lt=now - KEEP_SENT).delete()
    return deleted


def table_url(table_id: int) -> str:
    return reverse("table", args=[table_id])


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def notice_payload(table: Table, seats: list[Seat], user_id: int, kind: str) -> dict[str, Any]:
    """The words of a table's notice for one player. Only what everyone at the table sees:
    whose turn, the round, the card on offer (face up on the pile), places and totals."""
    state = engine.state_of(table.state)
    seat = next((s for s in seats if s.user_id == user_id), None)
    round_no, rounds = engine.round_progress(state) if state else (0, 0)
    where = f"Table #{table.pk}"
    tag = f"mayi-{table.pk}"
    if kind == TURN:
        title, body = "Your turn", f"{where}, round {round_no} of {rounds}: it is your turn."
    elif kind == MAYI:
        card = engine.card_on_offer(state)
        face = engine.view(state, None).get("faces", {}).get(card, {}) if card else {}
        label = face.get("label") or "the discard"
        title = "“May I?”"
        body = f"{where}: {label} is on offer. Do you want it?"
    else:
        public = engine.view(state, None)
        position = seat.position if seat is not None else 0
        totals = public.get("total_scores") or []
        places = public.get("places") or []
        place = places[position] if position < len(places) else None
        score = totals[position] if position < len(totals) else None
        title = "Game over"
        body = f"{where}: you finished {_ordinal(place) if place else '?'} with {score} points."
        tag = f"mayi-{table.pk}-ended"
    return {"title": title, "body": body, "url": table_url(table.pk), "tag": tag, "kind": kind}


def push_table_notices(*, table_id: int, notices: list[list[Any]]) -> dict[str, str]:
    """The pushes of one committed change (games/services/notices.py): each notice still true
    now (the turn not played yet, the window still open) goes to its player."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.state is None:
        return {}
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    state = table.state
    results: dict[str, str] = {}
    for user_id, kind, key in notices:
        if not _still_true(table, seats, state, user_id, kind, key):
            results[key] = "moved on"
            continue
        window = table.window_deadline
        ttl = None
        if kind == MAYI and window is not None:
            # An offer is worth nothing once its window closed.
            ttl = max(0, int((window - timezone.now()).total_seconds()))
        results[f"{key}:{user_id}"] = push_to_user(
            user_id=user_id,
            kind=kind,
            key=key,
            payload=notice_payload(table, seats, user_id, kind),
            table_id=table.pk,
            ttl=ttl,
        )
    return results


def _still_true(
    table: Table, seats: list[Seat], state: engine.State, user_id: int, kind: str, key: str
) -> bool:
    seat = next((s for s in seats if s.user_id == user_id), None)
    if seat is None:
        return False
    if kind == ENDED:
        return engine.is_over(state)
    if kind == TURN:
        return (
            table.status == Table.Status.PLAYING
            and key == f"turn:{table.pk}:{table.turn_seq}"
            and engine.clock_seat(state) == seat.position
        )
    if kind == MAYI:
        return engine.window_open(state) and seat.position in engine.answerers(state)
    return True


def mentioned_names(text: str) -> list[str]:
    """The names a chat text calls with ``@name`` (lower case, in order, once each)."""
    names: list[str] = []
    for match in MENTION_RE.finditer(text):
        name = match.group(1).rstrip(".,;:!?").lower()
        if name and name not in names:
            names.append(name)
    return names


def push_mentions(*, message_id: int) -> dict[str, str]:
    """Push a chat message to the players it names with ``@name``: only those who may read it
    (seated players for the players' chat), never its author."""
    message = ChatMessage.objects.select_related("author", "table").filter(pk=message_id).first()
    if message is None or message.hidden or message.author is None:
        return {}
    names = mentioned_names(message.text)
    if not names:
        return {}
    seats = Seat.objects.filter(table=message.table, user__isnull=False).select_related("user")
    if message.audience == ChatMessage.Audience.SPECTATORS:
        return {}  # spectators are not known by seat: nobody at the table is pushed their words
    author = message.author.get_username()
    text = message.text if len(message.text) <= 140 else message.text[:139] + "…"
    results: dict[str, str] = {}
    for seat in seats:
        user = seat.user
        if user is None or user.pk == message.author_id:
            continue
        if user.get_username().lower() not in names:
            continue
        if has_blocked(user, message.author_id):
            continue  # a blocked player's words never reach the one who blocked them
        results[user.get_username()] = push_to_user(
            user_id=user.pk,
            kind=MENTION,
            key=f"mention:{message.pk}",
            payload={
                "title": f"{author} at table #{message.table_id}",
                "body": text,
                "url": table_url(message.table_id),
                "tag": f"mayi-{message.table_id}-chat",
                "kind": MENTION,
            },
            table_id=message.table_id,
        )
    return results


INVITATION = "invitation"


def push_invitation(*, invitation_id: int) -> str:
    """Push a friend's invitation to their open table (social/), once; nothing when the
    invitee has blocked its sender since, or the table has started."""
    invitation = (
        Invitation.objects.select_related("sender", "table").filter(pk=invitation_id).first()
    )
    if invitation is None or invitation.declined:
        return "no invitation"
    if invitation.table.status != Table.Status.OPEN:
        return "table started"
    if has_blocked(invitation.recipient_id, invitation.sender_id):
        return "blocked"
    sender = invitation.sender.get_username()
    return push_to_user(
        user_id=invitation.recipient_id,
        kind=INVITATION,
        key=f"invitation:{invitation.pk}",
        payload={
            "title": f"{sender} invites you to table #{invitation.table_id}",
            "body": f"{invitation.table.ruleset}: a seat is kept open for you to join.",
            "url": table_url(invitation.table_id),
            "tag": f"mayi-{invitation.table_id}-invitation",
            "kind": INVITATION,
        },
    )
