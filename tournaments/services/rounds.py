"""A tournament's rounds: pairing (tables seated and started), scoring, and the tick that the
Celery beat runs (docs/TOURNAMENTS.md).

Every step claims its work so that running it twice, or two workers at once, acts once:
- a pairing runs under the tournament's row lock and makes the round's row, whose number is
  unique, in the same transaction as every table it seats: a worker killed mid-pairing leaves
  nothing behind, and the next tick pairs the round whole;
- a round's scoring claims the round with a conditional update (``status`` playing ->
  finished), in the transaction that writes its results;
- a table still playing at the round's deadline is finished by the bots through the games'
  own service, which does nothing to a table no longer being played.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections import defaultdict
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine
from games import services as games
from games.models import Seat, Table
from social.selectors import avoided_ids
from tournaments import ended, pairing, scoring
from tournaments.models import Entry, Result, Round, RoundTable, Tournament
from tournaments.standings import standings_json, standings_of, withdrawn_entries

from .common import lock_tournament, seat_range
from .notify import notify_tables_ready

logger = logging.getLogger("tournaments")


def deal_seed(tournament: Tournament, number: int, seats: int) -> str:
    """The seed every table of round ``number`` with ``seats`` seats plays: drawn from the
    tournament's secret, so nobody can deal it ahead, and the same at each such table."""
    return hashlib.sha256(f"{tournament.seed}:{number}:{seats}".encode()).hexdigest()


def _ranked_players(tournament: Tournament, number: int) -> list[Entry]:
    """The players to seat, best first: by the standings, or (round 1) in an order drawn from
    the tournament's seed."""
    active = {
        e.pk: e
        for e in Entry.objects.filter(tournament=tournament, withdrawn=None).select_related("user")
    }
    if number == 1:
        order = sorted(active.values(), key=lambda e: e.pk)
        random.Random(tournament.seed).shuffle(order)
        return order
    return [active[line.player] for line in standings_of(tournament) if line.player in active]


def _kept_apart(tournament: Tournament, players: list[int]) -> set[frozenset[int]]:
    """The pairs the pairing keeps apart where it can: opponents who met in an earlier
    round, and players of whom one blocked the other (they never learn it: the pairing
    seats them elsewhere as it would avoid a repeat)."""
    seats = Seat.objects.filter(
        table__tournament_table__round__tournament=tournament, user__isnull=False
    ).values_list("table_id", "user_id")
    by_table: dict[int, list[int]] = defaultdict(list)
    for table_id, user_id in seats:
        by_table[table_id].append(user_id)
    pairs = pairing.pairs_met(by_table.values())
    for user_id in players:
        pairs |= {frozenset((user_id, other)) for other in avoided_ids(user_id) if other in players}
    return pairs


def pair_next_round(tournament: Tournament, *, now: datetime) -> Round | None:
    """Seat and start the next round. The caller holds the tournament's lock (see
    :func:`tournaments.services.common.lock_tournament`) inside ``transaction.atomic``: the
    round's row and every table it seats commit together or not at all."""
    number = tournament.round + 1
    if (
        number > tournament.rounds
        or Round.objects.filter(tournament=tournament, number=number).exists()
    ):
        return None
    players = _ranked_players(tournament, number)
    if not players:
        _finish(tournament, now)
        return None
    low, high = seat_range(tournament.ruleset)
    plan = pairing.plan_sizes(len(players), tournament.table_size, low, high)
    people = list(plan.sizes)
    people[-1] -= plan.bots
    users = {e.user_id: e.user for e in players}
    ids = [e.user_id for e in players]
    seating = pairing.seat_tables(ids, people, _kept_apart(tournament, ids))
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        started=now,
        deadline=now + timedelta(seconds=tournament.round_seconds),
    )
    made = []
    for index, (size, seated) in enumerate(zip(plan.sizes, seating, strict=True), start=1):
        table = _start_table(tournament, number, size, [users[u] for u in seated])
        made.append(
            RoundTable(
                round=round_, table=table, number=index, seats=size, seed_hash=table.seed_sha256
            )
        )
    RoundTable.objects.bulk_create(made)
    tournament.round = number
    tournament.save(update_fields=["round"])
    notify_tables_ready(tournament=tournament, round_=round_, tables=made)
    return round_


def _start_table(tournament: Tournament, number: int, size: int, seated: list[User]) -> Table:
    """One table of the round, through the table services as a host would make it: opened
    by its first player, joined by the others, the empty seats (only when withdrawals left
    too few players) filled with bots, started with the deal's seed."""
    host = seated[0]
    table = games.table_create(
        host=host,
        ruleset=tournament.ruleset,
        seats=size,
        turn_seconds=tournament.turn_seconds,
        window_seconds=tournament.window_seconds,
        public=True,
        duplicate=True,
        seated_by_pairing=True,
    )
    for user in seated[1:]:
        games.table_join(user=user, invite_code=table.invite_code, seated_by_pairing=True)
    if len(seated) < size:
        games.table_fill_with_bots(user=host, table_id=table.pk)
    return games.table_start(user=host, table_id=table.pk, seed=deal_seed(tournament, number, size))


def _outcomes(table: Table, seats: list[Seat]) -> list[scoring.SeatOutcome]:
    totals = engine.total_scores(table.state) if table.state else []
    by_position = {s.position: s for s in seats}
    out = []
    for position, total in enumerate(totals):
        seat = by_position.get(position)
        forfeited = bool(seat and seat.user_id is not None and not seat.is_bot and seat.expelled)
        out.append(scoring.SeatOutcome(total=int(total), forfeited=forfeited))
    return out


def round_score(*, round_id: int, now: datetime | None = None) -> bool:
    """Score a round whose tables have all ended, once: claimed by a conditional update in
    the transaction that writes the results (and, after the last round, ends the
    tournament with its final standings kept)."""
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_related("tournament").get(pk=round_id)
        tournament = lock_tournament(round_.tournament_id)
        if not ended.round_tables_ended(round_):
            return False
        claimed = Round.objects.filter(pk=round_id, status=Round.Status.PLAYING).update(
            status=Round.Status.FINISHED, finished=now
        )
        if not claimed:
            return False
        _write_results(tournament, round_)
        if round_.number >= tournament.rounds:
            _finish(tournament, now)
    return True


def _write_results(tournament: Tournament, round_: Round) -> None:
    round_tables = list(RoundTable.objects.filter(round=round_).select_related("table"))
    seats = defaultdict(list)
    for seat in Seat.objects.filter(table__tournament_table__round=round_):
        seats[seat.table_id].append(seat)
    entries = dict(Entry.objects.filter(tournament=tournament).values_list("user_id", "pk"))
    # A table a moderator aborted was not played out: it scores nobody, and compares with none.
    played = [rt for rt in round_tables if rt.table.status == Table.Status.FINISHED]
    deals: dict[int, list[RoundTable]] = defaultdict(list)
    for rt in played:
        deals[rt.seats].append(rt)
    rows = []
    for deal in deals.values():
        outcomes = [_outcomes(rt.table, seats[rt.table_id]) for rt in deal]
        duplicates = scoring.duplicate_scores(outcomes)
        for rt, table_outcomes, table_duplicates in zip(deal, outcomes, duplicates, strict=True):
            points = scoring.place_points(table_outcomes)
            people = {
                s.position: s.user_id
                for s in seats[rt.table_id]
                if not s.is_bot and s.user_id is not None
            }
            for position, outcome in enumerate(table_outcomes):
                user_id = people.get(position)
                rows.append(
                    Result(
                        round_table=rt,
                        position=position,
                        entry_id=entries.get(user_id) if user_id is not None else None,
                        total=outcome.total,
                        place_points=points[position],
                        duplicate=table_duplicates[position],
                        forfeited=outcome.forfeited,
                    )
                )
    Result.objects.bulk_create(rows)


def _finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished = now
    tournament.final_standings = standings_json(
        standings_of(tournament), withdrawn_entries(tournament)
    )
    tournament.save(update_fields=["status", "finished", "final_standings"])


def _advance(tournament_id: int, now: datetime) -> dict[str, int]:
    """One tournament's step of the tick: finish the overdue tables, score the round, pair
    the next one."""
    done = {"finished_by_bots": 0, "scored": 0, "paired": 0}
    current = Round.objects.filter(tournament_id=tournament_id).order_by("-number").first()
    if current is not None and current.status == Round.Status.PLAYING:
        if current.deadline <= now:
            for table_id in ended.round_tables_playing(current):
                if games.table_finish_by_bots(table_id=table_id, now=now):
                    done["finished_by_bots"] += 1
        if round_score(round_id=current.pk, now=now):
            done["scored"] += 1
        else:
            return done
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status == Tournament.Status.PLAYING:
            if tournament.round >= tournament.rounds:
                _finish(tournament, now)
            elif pair_next_round(tournament, now=now) is not None:
                done["paired"] += 1
    return done


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> dict[str, int]:
    """One tournament's step of the tick, at once: what a tournament table's end queues."""
    tournament = Tournament.objects.filter(pk=tournament_id).values_list("status", flat=True)
    if tournament.first() != Tournament.Status.PLAYING:
        return {"finished_by_bots": 0, "scored": 0, "paired": 0}
    return _advance(tournament_id, now or timezone.now())


def rounds_advance(*, now: datetime | None = None) -> dict[str, int]:
    """Every tournament being played, one step each, each in its own transactions; one that
    fails is logged and left to the next tick (whatever it had begun rolled back)."""
    now = now or timezone.now()
    total = {"finished_by_bots": 0, "scored": 0, "paired": 0, "failed": 0}
    playing = Tournament.objects.filter(status=Tournament.Status.PLAYING).values_list(
        "pk", flat=True
    )
    for tournament_id in list(playing):
        try:
            for key, value in _advance(tournament_id, now).items():
                total[key] += value
        except Exception:
            logger.exception(
                "tournament %s: the tick failed; the next one tries again", tournament_id
            )
            total["failed"] += 1
    return total
