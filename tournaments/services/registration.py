"""A tournament's registration: create, join, withdraw, and the creator's start."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import services as games
from games.models import Seat, Table
from games.services import check_game_cap
from tournaments.models import MAX_ROUNDS, MAX_TABLE_SIZE, MIN_TABLE_SIZE, Entry, Tournament
from tournaments.reliability import reliability_of

from .common import lock_tournament, seat_range
from .errors import BadOptions, Conflict, NotCreator, NotSeated
from .rounds import pair_next_round

MAX_CLOCK_SECONDS = 30 * 24 * 3600
DEFAULT_ROUND_SECONDS = 7 * 24 * 3600
MAX_ROUND_SECONDS = 90 * 24 * 3600
MAX_PLAYERS = 512


def _int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadOptions(f"{name} must be an integer from {low} to {high}")
    return value


def tournament_create(
    *,
    creator: User,
    name: str,
    ruleset: str = "bga",
    table_size: int = 4,
    rounds: int = 3,
    turn_seconds: int = 24 * 3600,
    window_seconds: int = 3600,
    public: bool = True,
    max_players: int = 64,
    round_seconds: int | None = None,
    registration_closes: datetime | None = None,
    min_reliability: float | None = None,
    play: bool = True,
) -> Tournament:
    """Open a tournament for registration. Any player may (``play``: they register too);
    staff may organise one they do not play in (``play=False``)."""
    name = " ".join(str(name or "").split())
    if not 1 <= len(name) <= 80:
        raise BadOptions("name must be 1 to 80 characters")
    try:
        low, high = seat_range(ruleset)
    except BadOptions:
        raise
    except Exception:  # an unknown ruleset's name, however the engine refuses it
        raise BadOptions(f"there is no ruleset {ruleset!r}") from None
    size = _int("table_size", table_size, MIN_TABLE_SIZE, MAX_TABLE_SIZE)
    if not low <= size <= high:
        raise BadOptions(f"{ruleset} is played by {low} to {high} players")
    least = settings.MAYI_MIN_CLOCK_SECONDS
    turn = _int("turn_seconds", turn_seconds, least, MAX_CLOCK_SECONDS)
    window = _int("window_seconds", window_seconds, least, MAX_CLOCK_SECONDS)
    per_round = _int(
        "round_seconds",
        DEFAULT_ROUND_SECONDS if round_seconds is None else round_seconds,
        turn,
        MAX_ROUND_SECONDS,
    )
    if min_reliability is not None and (
        isinstance(min_reliability, bool)
        or not isinstance(min_reliability, int | float)
        or not 0 <= min_reliability <= 1
    ):
        raise BadOptions("min_reliability must be a number from 0 to 1")
    if registration_closes is not None and registration_closes <= timezone.now():
        raise BadOptions("registration_closes must be in the future")
    if play is False and not creator.is_staff:
        raise BadOptions("only staff organise a tournament they do not play in")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            ruleset=ruleset,
            table_size=size,
            rounds=_int("rounds", rounds, 1, MAX_ROUNDS),
            turn_seconds=turn,
            window_seconds=window,
            round_seconds=per_round,
            public=bool(public),
            invite_code=secrets.token_urlsafe(9),
            max_players=_int("max_players", max_players, size, MAX_PLAYERS),
            min_reliability=None if min_reliability is None else float(min_reliability),
            registration_closes=registration_closes,
            creator=creator,
            seed=secrets.token_hex(32),
        )
        if play:
            _register(tournament, creator)
    return tournament


def _may_manage(tournament: Tournament, user: User) -> bool:
    return user.is_staff or tournament.creator_id == user.pk


def _register(tournament: Tournament, user: User) -> Entry:
    wanted = tournament.min_reliability
    # The creator set the minimum for the others: it does not keep them out of their own.
    if wanted is not None and user.pk != tournament.creator_id:
        mine = reliability_of(user)
        if mine is None:
            raise NotSeated(
                f"this tournament asks for a reliability of at least {wanted:.0%}: yours shows "
                "once you have finished a few games",
                code="below_tournament_reliability",
            )
        if mine < wanted:
            raise NotSeated(
                f"this tournament asks for a reliability of at least {wanted:.0%}; "
                f"yours is {mine:.0%}",
                code="below_tournament_reliability",
            )
    # The tournament's games will count against the cap on games at once: a player at the
    # cap registers once they finished one (the pairing then seats them whatever the cap).
    check_game_cap(user=user)
    entry, made = Entry.objects.get_or_create(tournament=tournament, user=user)
    if not made and entry.withdrawn is not None:
        entry.withdrawn = None
        entry.save(update_fields=["withdrawn"])
    return entry


def _check_registering(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("the tournament is over", code="tournament_finished")
    if tournament.status != Tournament.Status.REGISTERING:
        raise Conflict(
            "registration is over: the tournament has started", code="tournament_started"
        )


def tournament_join(
    *, user: User, tournament_id: int, invite_code: str | None = None
) -> Tournament:
    """Register ``user`` (again, after a withdrawal before the start). Joining twice is
    harmless: the answer is the same. A tournament by invitation needs its invite code."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        mine = Entry.objects.filter(tournament=tournament, user=user, withdrawn=None).exists()
        if mine:
            return tournament
        _check_registering(tournament)
        invited = bool(invite_code) and secrets.compare_digest(
            str(invite_code), tournament.invite_code
        )
        if not tournament.public and not _may_manage(tournament, user) and not invited:
            raise NotSeated(
                "this tournament is by invitation: join it with its invite link",
                code="invite_required",
            )
        count = Entry.objects.filter(tournament=tournament, withdrawn=None).count()
        if count >= tournament.max_players:
            raise Conflict(
                f"the tournament is full ({tournament.max_players} players)",
                code="tournament_full",
            )
        _register(tournament, user)
    return tournament


def tournament_withdraw(*, user: User, tournament_id: int) -> Tournament:
    """Leave the tournament. Before the start the entry goes; once it is played the player
    keeps the points they had and is seated no more; a game of theirs still being played goes
    to the bot (the seat scores last)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn=None).first()
        if entry is None:
            raise Conflict("you are not registered in this tournament", code="not_registered")
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict("the tournament is over", code="tournament_finished")
        if tournament.status == Tournament.Status.REGISTERING:
            entry.delete()
            return tournament
        entry.withdrawn = timezone.now()
        entry.save(update_fields=["withdrawn"])
        playing = Seat.objects.filter(
            user=user,
            table__tournament_table__round__tournament=tournament,
            table__status=Table.Status.PLAYING,
        ).values_list("table_id", flat=True)
        for table_id in list(playing):
            games.seat_resign(table_id=table_id, user=user)
    return tournament


def tournament_start(
    *, user: User | None, tournament_id: int, now: datetime | None = None
) -> Tournament:
    """Start round 1 (the creator or staff; ``user`` None: the tick, when registration
    closes). Needs at least one table's players."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if user is not None and not _may_manage(tournament, user):
            raise NotCreator("only the tournament's creator starts it")
        _check_registering(tournament)
        players = Entry.objects.filter(tournament=tournament, withdrawn=None).count()
        if players < tournament.table_size:
            raise Conflict(
                f"{players} registered: a tournament starts with at least "
                f"{tournament.table_size} (one table)",
                code="too_few_players",
            )
        tournament.status = Tournament.Status.PLAYING
        tournament.started = now
        tournament.save(update_fields=["status", "started"])
        pair_next_round(tournament, now=now)
    return tournament


def registrations_close_due(*, now: datetime | None = None) -> int:
    """The tick: tournaments whose registration closed start, or end unplayed with too few
    players. Each in its own transaction, claimed under the tournament's lock."""
    now = now or timezone.now()
    done = 0
    due = Tournament.objects.filter(
        status=Tournament.Status.REGISTERING, registration_closes__lte=now
    ).values_list("pk", flat=True)
    for tournament_id in list(due):
        try:
            tournament_start(user=None, tournament_id=tournament_id, now=now)
        except games.ServiceError as exc:
            if exc.code != "too_few_players":
                continue
            Tournament.objects.filter(pk=tournament_id, status="registering").update(
                status=Tournament.Status.FINISHED, cancelled=True, finished=now
            )
        done += 1
    return done
