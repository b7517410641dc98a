"""The analysis task's work: a finished game replayed, and each decision of a person weighed by
the engine (``games.engine.analyse_decision``), within a budget of CPU seconds per game.

**Slices.** One run of the task works for at most ``MAYI_ANALYSIS_SLICE_SECONDS`` of CPU, writes
what it weighed, and queues the next slice behind whatever else waits: a long game never holds
a worker thread for minutes (the embedded worker of ``scripts/start`` runs the timers in the
same threads), and several games are analysed side by side. A slice holds the game by a lease
(a conditional update, as the timers claim a deadline), so a copy of the task queued twice
leaves it; its results are written only if it still holds the lease at this version.

**The budget.** ``MAYI_ANALYSIS_BUDGET_SECONDS`` of CPU (the worker thread's own time) per game,
all slices together. Each decision asks for ``MAYI_ANALYSIS_SAMPLES`` rollouts, fewer when what
is left of the budget, shared among the decisions left at the CPU a sample has cost so far,
would not pay for them; when even ``MIN_SAMPLES`` no longer fit, the analysis stops there, ready
but not complete.

**Who is weighed.** Moves by a person in their seat: not a bot's, not a seat the clock handed to
the bot, not a timeout's plays, not a standing order's answer (the order decided it, not the
player then); and only where the engine names a decision (``decision_kind``). Each is weighed
from the seat's own information (the engine reads nothing else), with a seed of its own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import engine
from games.engine import ANALYSIS_VERSION, analysis_choice, decision_analysis, decision_kind
from games.models import Move, Seat, Table
from stats.replay import replayed_game

from . import labels, services
from .models import Decision, GameAnalysis

logger = logging.getLogger("analysis")

# Fewer rollouts than this say nothing: the budget is spent, the analysis stops.
MIN_SAMPLES = 4
# The first decision, before a sample's CPU is known, gets no more than this: measured on a
# few, the budget is then shared evenly (the first decisions got all of theirs, the last few).
FIRST_SAMPLES = 8
# The measured CPU of a sample follows the latest decisions (a round's end is cheaper to roll
# out than its start).
SAMPLE_COST_WEIGHT = 0.3
# A slice's lease outlives its CPU slice by this much (a busy machine's wall clock runs ahead
# of the thread's CPU clock).
LEASE_MARGIN = timedelta(minutes=5)


@dataclass
class Point:
    """A decision of a person: the state before their move, and the move."""

    move: Move
    state: engine.State
    kind: str
    made: dict[str, Any]  # the engine's choice the move was
    user_id: int | None


def decision_points(table: Table, seats: list[Seat]) -> Iterator[Point]:
    """Each move of a person in ``table``'s game where the engine names a decision and the
    move is one of its choices (a MAYI meld or a wild swap made where a draw or a discard was
    to be decided is none: not weighed), with the state before it (the game dealt again from
    its seed, every move applied again)."""
    game = replayed_game(table)
    people = {s.position: s.user_id for s in seats if s.user_id is not None}
    before = game.start
    for move, (after, _) in zip(game.moves, game.replayed, strict=True):
        person = (
            move.seat is not None
            and not move.by_bot
            and move.seat in people
            and not move.action.get("standing_order")
        )
        if person:
            assert move.seat is not None
            made = analysis_choice(before, move.seat, move.action)
            kind = decision_kind(before, move.seat) if made is not None else None
            if made is not None and kind is not None:
                yield Point(move, before, kind, made, people[move.seat])
        before = after


def plan_samples(*, left: float, decisions_left: int, sample_seconds: float | None) -> int:
    """Rollouts for the next decision: the setting's, or what the budget ``left`` pays for
    when shared evenly among ``decisions_left``; 0 when not even MIN_SAMPLES fit.

    >>> plan_samples(left=100, decisions_left=10, sample_seconds=None)
    8
    >>> plan_samples(left=10, decisions_left=10, sample_seconds=0.1), plan_samples(left=0.1, decisions_left=10, sample_seconds=0.1)
    (10, 0)
    """
    wanted = int(settings.MAYI_ANALYSIS_SAMPLES)
    if left <= 0:
        return 0
    if sample_seconds is None or sample_seconds <= 0:
        return min(wanted, FIRST_SAMPLES)
    affordable = int(left / max(decisions_left, 1) / sample_seconds)
    if affordable >= wanted:
        return wanted
    if affordable >= MIN_SAMPLES:
        return affordable
    # Not enough for the even share: the next decision still gets MIN_SAMPLES if they fit.
    return MIN_SAMPLES if left >= MIN_SAMPLES * sample_seconds else 0


def weigh(point: Point, table: Table, samples: int) -> Decision | None:
    """The engine's analysis of one decision, as the row kept (None when the engine does not
    find the choice made among the ones it weighed: logged, as it is the engine's bug).

    ``decision_analysis`` is ``analyse_decision`` (the pinned answer) with the seat's expected
    score beside, for the replay's chart."""
    seat = point.move.seat
    assert seat is not None
    result = decision_analysis(
        point.state, seat, samples=samples, seed=f"table-{table.pk}-move-{point.move.seq}"
    )
    made = point.made
    choice = next((c for c in result["choices"] if c["action"] == made), None)
    if choice is None:
        logger.error(
            "table %s move %s: the choice made %s is not among the engine's choices",
            table.pk,
            point.move.seq,
            point.move.action,
        )
        return None
    cost = max(0.0, float(choice["cost"]))
    low, high = float(choice["low"]), float(choice["high"])
    label = labels.label(cost, low, high, table.ruleset)
    expected = result.get("expected")
    return Decision(
        analysis_id=table.pk,
        seq=point.move.seq,
        seat=seat,
        user_id=point.user_id,
        ruleset=table.ruleset,
        round_no=engine.round_progress(point.state)[0],
        kind=point.kind,
        action=made,
        best=result["best"],
        cost=round(cost, 3),
        low=round(low, 3),
        high=round(high, 3),
        label=label,
        samples=int(result["samples"]),
        choices=len(result["choices"]),
        pattern=""
        if label == labels.BEST
        else labels.pattern(point.kind, made, result["best"], table.ruleset),
        expected=round(float(expected), 2) if isinstance(expected, int | float) else None,
    )


def analysis_run_slice(*, table_id: int, now: datetime | None = None) -> str:
    """One slice of ``table_id``'s analysis (the task). Returns what it did: ``ready``,
    ``continues`` (the next slice is queued), ``held`` (another slice holds the game),
    ``gone`` (nothing pending), ``newer`` (made by a newer version of the code), ``failed``."""
    now = now or timezone.now()
    lease = now + timedelta(seconds=float(settings.MAYI_ANALYSIS_SLICE_SECONDS)) + LEASE_MARGIN
    held = (
        GameAnalysis.objects.filter(pk=table_id, status=GameAnalysis.Status.PENDING)
        .filter(Q(lease__isnull=True) | Q(lease__lt=now))
        .update(lease=lease)
    )
    if not held:
        pending = GameAnalysis.objects.filter(pk=table_id, status=GameAnalysis.Status.PENDING)
        return "held" if pending.exists() else "gone"
    analysis = GameAnalysis.objects.select_related("table").get(pk=table_id)
    if analysis.version > ANALYSIS_VERSION:
        # A worker of older code during a deploy: the newer one will do it.
        GameAnalysis.objects.filter(pk=table_id, lease=lease).update(lease=None, queued=None)
        return "newer"
    if analysis.version < ANALYSIS_VERSION:
        GameAnalysis.objects.filter(pk=table_id, lease=lease).update(lease=None)
        if not services.analysis_restart(table_id=table_id, old_version=analysis.version):
            return "held"
        return analysis_run_slice(table_id=table_id, now=now)
    return _slice(analysis, lease)


def _slice(analysis: GameAnalysis, lease: datetime) -> str:
    table = analysis.table
    seats = list(Seat.objects.filter(table=table))
    budget = float(settings.MAYI_ANALYSIS_BUDGET_SECONDS)
    slice_seconds = float(settings.MAYI_ANALYSIS_SLICE_SECONDS)
    started = time.thread_time()
    rows: list[Decision] = []
    next_seq = analysis.next_seq
    sample_seconds = analysis.sample_seconds
    done, failed = False, False
    try:
        points = list(decision_points(table, seats))
        total = len(points) if analysis.decisions_total is None else analysis.decisions_total
        todo = [p for p in points if p.move.seq >= analysis.next_seq]
        done = not todo
        for n, point in enumerate(todo):
            spent = time.thread_time() - started
            if spent >= slice_seconds and n > 0:
                break
            samples = plan_samples(
                left=budget - analysis.cpu_seconds - spent,
                decisions_left=len(todo) - n,
                sample_seconds=sample_seconds,
            )
            if samples == 0:
                done = True  # the budget is spent: ready, not complete
                break
            before = time.thread_time()
            row = weigh(point, table, samples)
            cost = time.thread_time() - before
            if row is not None:
                per = cost / max(row.samples, 1)
                sample_seconds = (
                    per
                    if sample_seconds is None
                    else sample_seconds + SAMPLE_COST_WEIGHT * (per - sample_seconds)
                )
                rows.append(row)
            next_seq = point.move.seq + 1
        else:
            done = True
    except Exception:
        # A game that no longer replays, or the engine failing on a position: logged, and the
        # analysis ends with what it has (it is made again at the next ANALYSIS_VERSION).
        logger.exception("the analysis of table %s failed", table.pk)
        failed, done, total = True, True, analysis.decisions_total or 0
    spent = time.thread_time() - started
    weighed = analysis.decisions.count() + len(rows)
    fields: dict[str, Any] = {
        "lease": None,
        "next_seq": next_seq,
        "decisions_total": total,
        "cpu_seconds": analysis.cpu_seconds + spent,
        "sample_seconds": sample_seconds,
    }
    if done:
        fields.update(
            status=GameAnalysis.Status.FAILED if failed else GameAnalysis.Status.READY,
            complete=not failed and weighed >= total,
            finished=timezone.now(),
        )
    else:
        fields.update(queued=timezone.now())
    with transaction.atomic():
        # Written only while this slice still holds the game at this version (a restart or an
        # expired lease taken by another slice leaves this work unwritten).
        kept = GameAnalysis.objects.filter(
            pk=table.pk, lease=lease, version=analysis.version
        ).update(**fields)
        if not kept:
            return "held"
        Decision.objects.bulk_create(rows)
        if not done:
            transaction.on_commit(lambda: _continue(table.pk), robust=True)
    if failed:
        return "failed"
    return "ready" if done else "continues"


def _continue(table_id: int) -> None:
    try:
        services.send_analysis(table_id)
    except Exception:
        # The sweep queues it again once REQUEUE_AFTER has passed.
        logger.exception("could not queue the next slice of table %s's analysis", table_id)
