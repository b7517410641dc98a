"""The analysis of a finished game by a real Celery worker process on PostgreSQL and Redis
(issue 33; the embedded worker's is tests/live/test_celery_embedded.py). A tiny budget: the
point is the path (the game-ended hook, the queue, the slices each queueing the next, the
budget ending it), not the rollouts (tests/engine/)."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.models import Decision, GameAnalysis
from tests.live.celeryworker import wait_for
from tests.site.stats_play import play_game


@pytest.mark.django_db(transaction=True)
def test_a_worker_analyses_a_finished_game_in_slices_within_its_budget(
    alice: Any, start_worker: Any, monkeypatch: Any, settings: Any
) -> None:
    settings.MAYI_ANALYSIS_AUTO_QUEUE = 5  # the game is queued at its end (the queue is empty)
    # The worker's settings (it reads its environment): a budget of 1.2 CPU seconds in slices
    # of 0.25. The game's 307 decisions at the fewest rollouts the budget plan allows
    # (run.MIN_SAMPLES, 4) take about 5 CPU seconds, 4 times the budget, so it stops early on
    # any machine (at one sample each they all fit in about 1.2 s).
    monkeypatch.setenv("MAYI_ANALYSIS_SAMPLES", "8")
    monkeypatch.setenv("MAYI_ANALYSIS_BUDGET_SECONDS", "1.2")
    monkeypatch.setenv("MAYI_ANALYSIS_SLICE_SECONDS", "0.25")
    worker = start_worker()
    table = play_game(alice, [], bots=2, seed="live-analysis")
    analysis = wait_for(
        lambda: GameAnalysis.objects.filter(pk=table.pk, status="ready").first(),
        60,
        f"the analysis of table {table.pk}\n{worker.output()[-3000:]}",
    )
    weighed = Decision.objects.filter(analysis=analysis).count()
    assert 0 < weighed < analysis.decisions_total and not analysis.complete
    # Within the budget, but for the last decision begun before it ran out.
    assert analysis.cpu_seconds < 1.2 + 0.5
    # Several slices, each queueing the next through the broker.
    assert worker.output().count("analysis.tasks.analyse_game") >= 3


pytestmark = pytest.mark.live
