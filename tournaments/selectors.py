"""Reading tournaments for a viewer: the list, one tournament with its standings and rounds,
a player's results (their statistics page) and the lobby's panel."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q

from games.models import Seat, Table
from games.names import bot_name
from tournaments.models import Entry, Result, Round, RoundTable, Tournament

from .services.errors import NotSeated, TournamentNotFound
from .standings import standings_json, standings_of, withdrawn_entries

LIST_LIMIT = 50


def tournament_for(*, tournament_id: int, viewer: User | AnonymousUser) -> Tournament:
    """The tournament, if ``viewer`` may see it: a public one, anyone; one by invitation, its
    players, creator and staff (others follow the invite link to join first)."""
    tournament = Tournament.objects.select_related("creator").filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound(f"there is no tournament {tournament_id}")
    if not tournament.public and not _insider(tournament, viewer):
        raise NotSeated(
            "this tournament is by invitation: its invite link opens it", code="invite_required"
        )
    return tournament


def _insider(tournament: Tournament, viewer: User | AnonymousUser) -> bool:
    if not viewer.pk:
        return False
    if viewer.is_staff or tournament.creator_id == viewer.pk:
        return True
    return Entry.objects.filter(tournament=tournament, user_id=viewer.pk).exists()


def tournament_list(*, viewer: User | AnonymousUser) -> list[Tournament]:
    """Public tournaments, and every one the viewer plays in or made, newest first, with
    their number of players."""
    mine = Q(public=True)
    if viewer.pk:
        mine |= Q(entries__user_id=viewer.pk) | Q(creator_id=viewer.pk)
    ids = Tournament.objects.filter(mine).values("pk")
    return list(
        Tournament.objects.filter(pk__in=ids)
        .annotate(players=Count("entries", filter=Q(entries__withdrawn=None)))
        .order_by("-created")[:LIST_LIMIT]
    )


def tournament_meta(tournament: Tournament, viewer: User | AnonymousUser) -> dict[str, Any]:
    entry = (
        Entry.objects.filter(tournament=tournament, user_id=viewer.pk).first()
        if viewer.pk
        else None
    )
    manager = bool(viewer.pk) and (viewer.is_staff or tournament.creator_id == viewer.pk)
    current = Round.objects.filter(tournament=tournament, number=tournament.round).first()
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "round": tournament.round,
        "rounds": tournament.rounds,
        "ruleset": tournament.ruleset,
        "table_size": tournament.table_size,
        "turn_seconds": tournament.turn_seconds,
        "window_seconds": tournament.window_seconds,
        "round_seconds": tournament.round_seconds,
        "public": tournament.public,
        "max_players": tournament.max_players,
        "min_reliability": tournament.min_reliability,
        "registration_closes": (
            tournament.registration_closes.isoformat() if tournament.registration_closes else None
        ),
        "round_deadline": current.deadline.isoformat() if current else None,
        "creator": tournament.creator.get_username() if tournament.creator else None,
        "players": Entry.objects.filter(tournament=tournament, withdrawn=None).count(),
        "registered": entry is not None and entry.withdrawn is None,
        "withdrawn": entry is not None and entry.withdrawn is not None,
        "may_start": manager and tournament.status == Tournament.Status.REGISTERING,
        "invite_code": tournament.invite_code if manager or entry is not None else None,
        "cancelled": tournament.cancelled,
    }


@dataclass(frozen=True)
class TableLine:
    id: int
    number: int
    seed_hash: str
    seats: list[str]
    status: str
    results: list[dict[str, Any]]


def rounds_of(tournament: Tournament) -> list[dict[str, Any]]:
    """Each round with its tables: the seats by name, the deal's seed hash, the table's
    status and, once the round is scored, each seat's total, place points and duplicate."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament)
        .select_related("table")
        .order_by("round__number", "number")
    )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__tournament_table__round__tournament=tournament)
        .select_related("user")
        .order_by("position")
    ):
        seats[seat.table_id].append(seat)
    results: dict[int, list[Result]] = defaultdict(list)
    for result in Result.objects.filter(round_table__round__tournament=tournament).order_by(
        "position"
    ):
        results[result.round_table_id].append(result)
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for rt in tables:
        names = [
            s.user.get_username() if s.user and not s.is_bot else bot_name(s.position)
            for s in seats[rt.table_id]
        ]
        by_round[rt.round_id].append(
            {
                "id": rt.table_id,
                "number": rt.number,
                "seed_hash": rt.seed_hash,
                "seats": names,
                "seat_count": rt.seats,
                "status": rt.table.status,
                "results": [
                    {
                        "position": r.position,
                        "username": names[r.position] if r.position < len(names) else None,
                        "total": r.total,
                        "points": r.place_points,
                        "duplicate": round(r.duplicate, 3),
                        "forfeited": r.forfeited,
                    }
                    for r in results[rt.pk]
                ],
            }
        )
    return [
        {
            "number": r.number,
            "status": r.status,
            "started": r.started.isoformat(),
            "deadline": r.deadline.isoformat(),
            "tables": by_round[r.pk],
        }
        for r in rounds
    ]


def standings_for(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings: kept as they were once the tournament finished, else computed."""
    if tournament.final_standings is not None:
        return list(tournament.final_standings)
    return standings_json(standings_of(tournament), withdrawn_entries(tournament))


def tournament_payload(tournament: Tournament, viewer: User | AnonymousUser) -> dict[str, Any]:
    """``GET /api/tournaments/<id>``: the tournament, its standings and its rounds."""
    return {
        "tournament": tournament_meta(tournament, viewer),
        "standings": standings_for(tournament),
        "rounds": rounds_of(tournament),
    }


@dataclass(frozen=True)
class PlayerResult:
    tournament: Tournament
    rank: int | None
    players: int
    points: float
    duplicate: float
    games: int


def player_results(*, username: str) -> list[PlayerResult]:
    """The tournaments the player played (the newest first; finished or being played), with
    their rank: on their statistics page."""
    out = []
    entries = (
        Entry.objects.filter(user__username=username)
        .exclude(tournament__status=Tournament.Status.REGISTERING)
        .select_related("tournament")
        .order_by("-tournament__created")[:LIST_LIMIT]
    )
    for entry in entries:
        lines = standings_for(entry.tournament)
        mine = next((line for line in lines if line["username"] == username), None)
        out.append(
            PlayerResult(
                tournament=entry.tournament,
                rank=mine["rank"] if mine else None,
                players=len(lines),
                points=mine["points"] if mine else 0.0,
                duplicate=mine["duplicate"] if mine else 0.0,
                games=mine["games"] if mine else 0,
            )
        )
    return out


@dataclass(frozen=True)
class ReadyTable:
    tournament: Tournament
    round: int
    table_id: int


def tables_ready(*, user: User) -> list[ReadyTable]:
    """The lobby's notice: the viewer's tables of tournament rounds being played."""
    rows = (
        RoundTable.objects.filter(
            table__status=Table.Status.PLAYING,
            table__seats__user=user,
            table__seats__expelled=False,
            round__status=Round.Status.PLAYING,
        )
        .select_related("round__tournament")
        .order_by("-round__started")[:LIST_LIMIT]
    )
    return [ReadyTable(rt.round.tournament, rt.round.number, rt.table_id) for rt in rows]


def deal_tables(
    *, tournament: Tournament, number: int, seats: int
) -> list[tuple[RoundTable, list[str]]]:
    """The tables of round ``number`` that played the ``seats``-seat deal, with their
    players' names by position."""
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, round__number=number, seats=seats)
        .select_related("table")
        .order_by("number")
    )
    if not tables:
        raise TournamentNotFound(f"round {number} has no table of {seats} seats")
    names: dict[int, list[str]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table_id__in=[rt.table_id for rt in tables])
        .select_related("user")
        .order_by("position")
    ):
        names[seat.table_id].append(
            seat.user.get_username() if seat.user and not seat.is_bot else bot_name(seat.position)
        )
    return [(rt, names[rt.table_id]) for rt in tables]
