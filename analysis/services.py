"""Who may read a game's analysis, asking for one, and queueing the task that makes it.

**By default** every finished game with a person in it is analysed: the game-ended hook
(games/hooks.py, inside the move's transaction) writes its pending row, and after the commit
its task is queued **only when the analysis queue is short** (fewer than
``MAYI_ANALYSIS_AUTO_QUEUE`` tasks waiting; the broker's count of the queue decides). A game
that ended while the queue was long waits: the sweep (beat, ``analysis.tasks.sweep``) queues
waiting games, newest first, whenever there is room again; a replay's first read of its
analysis queues it too, under the same rule. Nothing of this holds a move up: one insert in
the move's transaction, the rest after its commit, and the work itself on a queue and a worker
of its own (docs/ANALYSIS.md).

**On request** a player of the game asks (rate-limited at the edges): their game's task is
queued whatever the queue's length.

**Made again** when the engine's ``ANALYSIS_VERSION`` is not the one a game's analysis was made
with: the next read, request or sweep starts it afresh.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.engine import ANALYSIS_VERSION
from games.models import Seat, Table
from games.services import NotSeated, ServiceError
from stats.replay import ReplayRefused, replay_table

from .models import Decision, GameAnalysis

logger = logging.getLogger("analysis")

ANALYSE_GAME = "analysis.tasks.analyse_game"
SWEEP = "analysis.tasks.sweep"
# A game queued this long ago and still waiting is queued again (its task was lost with a
# worker, or the broker's data); a copy that does arrive finds the work done or held.
REQUEUE_AFTER = timedelta(hours=1)


class AnalysisNotFound(ServiceError):
    status = 404
    code = "analysis_not_found"


class AnalysisRefused(ServiceError):
    """The replay's refusal (a private table, a game that no longer replays), as a service's."""


@dataclass
class AnalysisRead:
    analysis: GameAnalysis
    decisions: list[Decision]
    queued: bool  # this read queued its task

    @property
    def ready(self) -> bool:
        # A failed analysis is over too: what was weighed before the failure is what there is.
        return self.analysis.status != GameAnalysis.Status.PENDING


# -- the queue ----------------------------------------------------------------------------------


def queue_waiting(name: str) -> int | None:
    """How many tasks wait in the broker's queue ``name`` (None: the broker did not answer).

    A declare (never passive: an empty Redis queue has no key, and a passive declare would
    call it missing) answers the count: Redis's LLEN, the memory broker's size."""
    try:
        with current_app.pool.acquire(block=True, timeout=2) as conn:
            conn.ensure_connection(max_retries=1)
            return int(conn.default_channel.queue_declare(queue=name).message_count)
    except Exception:
        logger.warning("could not count the tasks waiting in %s", name, exc_info=True)
        return None


def queue_room() -> int:
    """How many more games may be queued by default now: ``MAYI_ANALYSIS_AUTO_QUEUE`` less
    those waiting (0 when the broker does not answer, or the setting is 0)."""
    most = int(settings.MAYI_ANALYSIS_AUTO_QUEUE)
    if most <= 0:
        return 0
    waiting = queue_waiting(settings.MAYI_ANALYSIS_QUEUE)
    return 0 if waiting is None else max(0, most - waiting)


def send_analysis(table_id: int) -> None:
    """Queue one slice of ``table_id``'s analysis (raises what the broker raises)."""
    current_app.send_task(ANALYSE_GAME, args=(table_id,), queue=settings.MAYI_ANALYSIS_QUEUE)


def analysis_queue(*, table_id: int, force: bool = False, now: datetime | None = None) -> bool:
    """Queue the task of ``table_id``'s pending analysis: when ``force``, or when the queue is
    short. Never twice: the row is claimed first (``queued`` set where it was empty or stale),
    so two readers at once queue it once. True when this call queued it."""
    now = now or timezone.now()
    if not force and queue_room() <= 0:
        return False
    claimed = (
        GameAnalysis.objects.filter(pk=table_id, status=GameAnalysis.Status.PENDING)
        .filter(Q(queued__isnull=True) | Q(queued__lt=now - REQUEUE_AFTER))
        .update(queued=now)
    )
    if not claimed:
        return False
    try:
        send_analysis(table_id)
    except Exception:
        logger.exception("could not queue the analysis of table %s", table_id)
        GameAnalysis.objects.filter(pk=table_id, queued=now).update(queued=None)
        return False
    return True


def analysis_sweep(*, now: datetime | None = None) -> int:
    """Queue waiting games while the queue has room, the newest games first (their players are
    the likeliest to look); with room left, make again the analyses of an older
    ``ANALYSIS_VERSION``, newest first too. Returns how many were queued."""
    now = now or timezone.now()
    room = queue_room()
    if room <= 0:
        return 0
    waiting = (
        GameAnalysis.objects.filter(status=GameAnalysis.Status.PENDING)
        .filter(Q(queued__isnull=True) | Q(queued__lt=now - REQUEUE_AFTER))
        .filter(Q(lease__isnull=True) | Q(lease__lt=now))
        .order_by("-ended")
        .values_list("pk", flat=True)[:room]
    )
    queued = sum(analysis_queue(table_id=pk, force=True, now=now) for pk in list(waiting))
    if queued < room:
        older = (
            GameAnalysis.objects.exclude(version=ANALYSIS_VERSION)
            .exclude(status=GameAnalysis.Status.PENDING)
            .order_by("-ended")
            .values_list("pk", "version")[: room - queued]
        )
        for pk, version in list(older):
            if analysis_restart(table_id=pk, old_version=version):
                queued += analysis_queue(table_id=pk, force=True, now=now)
    return queued


# -- the game's end -----------------------------------------------------------------------------


def analysis_game_ended(*, table: Table, seats: Any, now: datetime) -> None:
    """games' hook, in the transaction of the game's last move: a game a person played gets its
    pending analysis; after the commit its task is queued if the queue is short."""
    if not any(s.user_id is not None for s in seats):
        return
    # ignore_conflicts: a row already there (never expected) must not undo the move.
    GameAnalysis.objects.bulk_create(
        [GameAnalysis(table=table, version=ANALYSIS_VERSION, ended=now)], ignore_conflicts=True
    )
    table_id = table.pk
    transaction.on_commit(lambda: analysis_queue(table_id=table_id), robust=True)


# -- reading and asking -------------------------------------------------------------------------


def analysis_table(*, table_id: int, viewer: User | AnonymousUser) -> tuple[Table, list[Seat]]:
    """The table and its seats if ``viewer`` may read its analysis: exactly who may read its
    replay (a finished public game, or a private one they sat at). A game not over (or aborted)
    has none: AnalysisNotFound (404)."""
    try:
        return replay_table(table_id=table_id, viewer=viewer)
    except ReplayRefused as exc:
        if exc.code == "game_not_finished":
            raise AnalysisNotFound(
                f"table {table_id}'s game is not over: a game is analysed once it has ended"
            ) from None
        raise AnalysisRefused(exc.message, code=exc.code, status=exc.status) from None


def _current(table: Table) -> GameAnalysis:
    """The game's analysis row, made if missing and started afresh if it was made with another
    version of the engine's analysis."""
    analysis = GameAnalysis.objects.filter(pk=table.pk).first()
    if analysis is None:
        GameAnalysis.objects.bulk_create(
            [GameAnalysis(table=table, version=ANALYSIS_VERSION, ended=table.updated)],
            ignore_conflicts=True,
        )
        return GameAnalysis.objects.get(pk=table.pk)
    if analysis.version != ANALYSIS_VERSION:
        analysis_restart(table_id=table.pk, old_version=analysis.version)
        analysis.refresh_from_db()
    return analysis


def analysis_restart(*, table_id: int, old_version: int) -> bool:
    """Start ``table_id``'s analysis afresh at this version (once: the row is changed only if
    it still holds ``old_version``; a slice running on it then leaves its work unwritten)."""
    with transaction.atomic():
        changed = GameAnalysis.objects.filter(pk=table_id, version=old_version).update(
            status=GameAnalysis.Status.PENDING,
            version=ANALYSIS_VERSION,
            queued=None,
            lease=None,
            next_seq=0,
            decisions_total=None,
            cpu_seconds=0.0,
            sample_seconds=None,
            complete=False,
            finished=None,
        )
        if changed:
            Decision.objects.filter(analysis_id=table_id).delete()
    return bool(changed)


def analysis_read(*, table_id: int, viewer: User | AnonymousUser) -> AnalysisRead:
    """A finished game's analysis for ``viewer`` (who may read its replay). Not made yet: it
    is pending, and queued when the queue is short. Every seat's decisions are listed: a game
    is analysed only once it is over, when every hand is public."""
    table, _ = analysis_table(table_id=table_id, viewer=viewer)
    analysis = _current(table)
    queued = False
    if analysis.status == GameAnalysis.Status.PENDING:
        queued = analysis_queue(table_id=table.pk)
        return AnalysisRead(analysis, [], queued)
    return AnalysisRead(analysis, list(analysis.decisions.order_by("seq")), queued)


def analysis_request(*, table_id: int, user: User) -> AnalysisRead:
    """A player of a finished game asks for its analysis: queued whatever the queue's length
    (the edges rate-limit the asking). Someone who did not sit at the game is refused."""
    table, seats = analysis_table(table_id=table_id, viewer=user)
    if not any(s.user_id == user.pk for s in seats):
        raise NotSeated("only the players of a game may ask for its analysis")
    analysis = _current(table)
    queued = False
    if analysis.status == GameAnalysis.Status.PENDING:
        if analysis.requested_by_id is None:
            GameAnalysis.objects.filter(pk=table.pk, requested_by=None).update(requested_by=user)
        queued = analysis_queue(table_id=table.pk, force=True)
        return AnalysisRead(analysis, [], queued)
    return AnalysisRead(analysis, list(analysis.decisions.order_by("seq")), queued)
