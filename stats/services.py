"""Writing statistics: round records when a round ends, results, ratings and aggregates when a
game finishes; and the back-fill of games finished before these existed.

``stats_round_ended`` and ``stats_game_finished`` run inside the transaction of the move that
ended the round or the game (``games.services.common.Transition.commit``), under the table's row
lock, so the numbers commit with the move or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import engine
from games.engine import (
    LoggedMove,
    RoundRecorder,
    initial_state,
    opening_event,
    replay,
)
from games.models import Move, Seat, Table

from . import aggregates, ratings
from .models import GameResult, PlayerStats, Rating, RoundRecord
from .reliability import Entry, game_move_seconds, reliability_record

RECORD_FIELDS = (
    "score",
    "penalty",
    "went_out",
    "down_turn",
    "turns",
    "windows",
    "calls",
    "buys",
    "bought_used",
    "mayi_melds",
    "lay_offs",
    "lay_offs_others",
    "draws_pile",
    "draws_stock",
    "timeouts",
    "think_seconds",
    "clock_seconds",
)


def _seconds(at: datetime | None, fallback: datetime) -> float:
    return (at or fallback).timestamp()


def stats_round_ended(
    *,
    table: Table,
    seats: Sequence[Seat],
    state: engine.State,
    new_moves: Sequence[Move],
    now: datetime,
) -> list[RoundRecord]:
    """Write the records of the rounds that ended in ``new_moves`` (not yet saved) from the
    round's log: the moves since the last recorded round's end, then these.

    ``state`` is the game's state after these moves. The caller holds the table's row lock
    inside ``transaction.atomic``.
    """
    # From the move that ended the last recorded round (its events start this one), in the
    # same statement as the moves.
    last_end = RoundRecord.objects.filter(table=table).values("table").annotate(m=Max("end_seq"))
    stored = Move.objects.filter(
        table=table, seq__gte=Coalesce(Subquery(last_end.values("m")[:1]), 1)
    ).order_by("seq")
    moves = [*stored.only("seq", "seat", "by_bot", "events", "created"), *new_moves]
    log: list[tuple[int, LoggedMove]] = []
    if moves and moves[0].seq == 1:
        # Round 1 starts in new_game: no move carries its start (nor its time, so its first
        # turn has no think time).
        log.append((0, LoggedMove(None, False, [opening_event(initial_state(state))])))
    for move in moves:
        log.append(
            (
                move.seq,
                LoggedMove(move.seat, move.by_bot, move.events, _seconds(move.created, now)),
            )
        )
    return _write_records(table, seats, log)


def _write_records(
    table: Table, seats: Sequence[Seat], log: list[tuple[int, LoggedMove]]
) -> list[RoundRecord]:
    """Records of the rounds ending in ``log``, each with the seq of the move that ended it."""
    by_position = {s.position: s for s in seats}
    made: list[RoundRecord] = []
    seen = 0
    recorder = RoundRecorder(len(seats) or table.seat_count)
    for seq, move in log:
        recorder.feed(move)
        while len(recorder.finished) > seen:
            number, recs = recorder.finished[seen]
            seen += 1
            for position, rec in enumerate(recs):
                seat = by_position.get(position)
                made.append(
                    RoundRecord(
                        table=table,
                        round_no=number,
                        seat=position,
                        user_id=seat.user_id if seat else None,
                        ruleset=table.ruleset,
                        by_bot=bool(seat and seat.played_by_bot),
                        end_seq=seq,
                        **{k: rec[k] for k in RECORD_FIELDS},
                    )
                )
    if made:
        RoundRecord.objects.bulk_create(made, ignore_conflicts=True)
    return made


def stats_game_finished(*, table: Table, seats: Sequence[Seat], now: datetime) -> None:
    """The game at ``table`` just finished: write each seat's result with the rating update,
    and fold the game into the aggregates of each person at the table.

    The caller holds the table's row lock inside ``transaction.atomic``. A table a moderator
    aborted is neither rated nor counted.
    """
    state = engine.state_of(table.state)
    if table.status == Table.Status.ABORTED or not state or not engine.is_over(state):
        return
    records = list(RoundRecord.objects.filter(table=table).order_by("round_no", "seat").values())
    _finish(table, list(seats), state, records, now)


def _finish(
    table: Table,
    seats: list[Seat],
    state: engine.State,
    records: Sequence[Mapping[str, Any]],
    now: datetime,
) -> None:
    places = engine.final_places(state)
    totals, rounds_out = engine.total_scores(state), engine.rounds_went_out(state)
    people = [s for s in seats if s.user_id is not None and not s.is_bot]
    user_ids = sorted({s.user_id for s in people if s.user_id is not None})
    current = _locked_ratings(user_ids, table.ruleset)
    entrants = [
        ratings.Entrant(
            key=s.position,
            human=s.user_id is not None and not s.is_bot,
            expelled=s.expelled,
            place=places[s.position],
            mu=current[s.user_id].mu if s.user_id in current else ratings.MU,
            sigma=current[s.user_id].sigma if s.user_id in current else ratings.SIGMA,
        )
        for s in seats
    ]
    new = ratings.rate(entrants)
    results = []
    changed: list[Rating] = []
    for s in seats:
        before = current.get(s.user_id) if s.user_id is not None else None
        after = new.get(s.position)
        results.append(
            GameResult(
                table=table,
                seat=s.position,
                user_id=s.user_id if not s.is_bot else None,
                ruleset=table.ruleset,
                players=len(seats),
                total=totals[s.position],
                place=places[s.position],
                rounds_out=rounds_out[s.position],
                by_bot=s.is_bot,
                expelled=s.expelled,
                rated=after is not None,
                mu_before=before.mu if before and after else None,
                sigma_before=before.sigma if before and after else None,
                mu_after=after[0] if after else None,
                sigma_after=after[1] if after else None,
                finished=now,
            )
        )
        if after is not None and before is not None:
            before.mu, before.sigma = after
            before.games += 1
            before.updated = now
            changed.append(before)
    GameResult.objects.bulk_create(results)
    if changed:
        Rating.objects.bulk_update(changed, ["mu", "sigma", "games", "updated"])
    _fold_aggregates(table, people, places, records, now)
    reliability_record(entries=reliability_entries(table.pk, people, records))


def reliability_entries(
    table_id: int, people: Sequence[Seat], records: Sequence[Mapping[str, Any]]
) -> dict[int, Entry]:
    """Each person's line of this game in their reliability: finished in their seat (not
    expelled by the clock nor given to the bot by a moderator), and their median time to move."""
    return {
        s.user_id: (
            table_id,
            not s.expelled,
            game_move_seconds(
                t for r in records if r["seat"] == s.position for t in r["think_seconds"] or []
            ),
            sum(int(r["timeouts"]) for r in records if r["seat"] == s.position),
        )
        for s in people
        if s.user_id is not None
    }


def stats_seat_handed_over(*, table: Table, user_id: int) -> None:
    """A moderator gave ``user_id``'s seat at ``table`` (being played) to someone else: the
    game goes into their reliability now, as not finished in their seat. The caller holds the
    table's row lock."""
    reliability_record(entries={user_id: (table.pk, False, None, 0)})


def _locked_ratings(user_ids: list[int], ruleset: str) -> dict[int, Rating]:
    """The people's ratings in ``ruleset``, made at the newcomer's values if missing, locked
    (in user order, so two games finishing at once lock in the same order) until commit."""
    if not user_ids:
        return {}
    Rating.objects.bulk_create(
        [Rating(user_id=u, ruleset=ruleset, mu=ratings.MU, sigma=ratings.SIGMA) for u in user_ids],
        ignore_conflicts=True,
    )
    rows = (
        Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, ruleset=ruleset)
        .order_by("user_id")
    )
    return {r.user_id: r for r in rows}


def _fold_aggregates(
    table: Table,
    people: list[Seat],
    places: list[int],
    records: Sequence[Mapping[str, Any]],
    now: datetime,
) -> None:
    user_ids = sorted({s.user_id for s in people if s.user_id is not None})
    if not user_ids:
        return
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=u, ruleset=table.ruleset, data=aggregates.empty()) for u in user_ids],
        ignore_conflicts=True,
    )
    rows = {
        r.user_id: r
        for r in PlayerStats.objects.select_for_update()
        .filter(user_id__in=user_ids, ruleset=table.ruleset)
        .order_by("user_id")
    }
    # The places the statistics count: an expelled player's is last (aggregates.counted_place).
    counted = {
        s.position: aggregates.counted_place(places[s.position], len(places), s.expelled)
        for s in people
    }
    winners = sum(1 for p, place in enumerate(places) if counted.get(p, place) == 1)
    for seat in people:
        assert seat.user_id is not None  # people are the seats with a user
        row = rows[seat.user_id]
        game = aggregates.SeatGame(
            table_id=table.pk,
            players=len(places),
            total=engine.total_scores(engine.state_of(table.state))[seat.position],
            place=counted[seat.position],
            winners=winners,
            finished=now.isoformat(),
            rounds=[dict(r) for r in records if r["seat"] == seat.position],
            opponents=[
                (o.user_id, counted[o.position])
                for o in people
                if o.user_id is not None and o.user_id != seat.user_id
            ],
        )
        row.data = aggregates.fold(row.data or aggregates.empty(), game)
        row.updated = now
    PlayerStats.objects.bulk_update(list(rows.values()), ["data", "updated"])


# -- back-fill --------------------------------------------------------------------------------
def stats_backfill(*, table_ids: Iterable[int] | None = None) -> int:
    """Records, results, ratings and aggregates of finished games that have none, rebuilt by
    replaying each game's move log through the engine from its seed (the stored events are
    not trusted), oldest finished first so ratings and streaks come in order. Returns the
    number of games filled."""
    done = GameResult.objects.values("table_id")
    tables = Table.objects.filter(status=Table.Status.FINISHED).exclude(pk__in=done)
    if table_ids is not None:
        tables = tables.filter(pk__in=list(table_ids))
    count = 0
    for table_id in tables.order_by("updated", "pk").values_list("pk", flat=True):
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=table_id)
            if GameResult.objects.filter(table=table).exists():
                continue
            seats = list(Seat.objects.filter(table=table).order_by("position"))
            moves = list(Move.objects.filter(table=table).order_by("seq"))
            assert table.state is not None  # a finished game has its state
            start = initial_state(table.state)
            log: list[tuple[int, LoggedMove]] = [
                (0, LoggedMove(None, False, [opening_event(start)]))
            ]
            steps = replay(start, [(m.seat, m.action) for m in moves])
            for move, (_, events) in zip(moves, steps, strict=True):
                log.append(
                    (move.seq, LoggedMove(move.seat, move.by_bot, events, move.created.timestamp()))
                )
            RoundRecord.objects.filter(table=table).delete()
            _write_records(table, seats, log)
            records = list(
                RoundRecord.objects.filter(table=table).order_by("round_no", "seat").values()
            )
            finished = moves[-1].created if moves else table.updated or timezone.now()
            _finish(table, seats, table.state, records, finished)
            count += 1
    return count


__all__ = [
    "stats_backfill",
    "stats_game_finished",
    "stats_round_ended",
    "stats_seat_handed_over",
]
