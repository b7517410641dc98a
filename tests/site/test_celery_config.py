"""The Celery app's settings that make timers safe, and the thin tasks run in-process."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import tasks
from games.models import Move
from mayi_site.celery import app
from notify.nudges import DELIVER_NUDGE
from privacy.services import BUILD_EXPORT
from tournaments import tasks as tournament_tasks
from tournaments.services import ADVANCE
from tournaments.services.notify import PUSH_READY

from .test_timebank import bank_table


def test_workers_ack_late_reject_on_loss_and_prefetch_one():
    conf = app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    # No task waits with an ETA longer than the visibility timeout (no redelivery while waiting).
    visibility = conf.broker_transport_options["visibility_timeout"]
    assert visibility > settings.MAYI_TIMER_HORIZON + 60
    sweep = conf.beat_schedule["sweep-deadlines"]
    assert sweep["task"] == "games.tasks.sweep_deadlines" and sweep["schedule"] <= 5
    # Reminders are swept, and their emails sent, on a queue of their own.
    mail = conf.beat_schedule["sweep-reminders"]
    assert mail["task"] == "games.tasks.sweep_reminders"
    assert mail["options"]["queue"] == settings.MAYI_MAIL_QUEUE
    assert sweep["options"]["queue"] != settings.MAYI_MAIL_QUEUE
    expected = settings.REDIS_URL or "memory://"
    assert conf.broker_url == expected


def test_the_services_queue_tasks_by_names_the_app_knows():
    from games.services import enqueue

    assert set(enqueue.TASK_NAMES) <= set(app.tasks), "a task the services queue is not registered"
    assert {t["task"] for t in app.conf.beat_schedule.values()} <= set(app.tasks)
    # The other apps' tasks queued by name: registered by the app's discovery, not by an import
    # of this test (run alone, nothing here imports notify's or privacy's tasks).
    queued = {DELIVER_NUDGE, ADVANCE, PUSH_READY, BUILD_EXPORT}
    assert queued <= set(app.tasks), queued - set(app.tasks)


def test_the_beat_runs_the_tournaments_tick(db):
    tick = app.conf.beat_schedule["tournaments-tick"]
    assert tick["task"] == "tournaments.tasks.tick"
    assert tick["schedule"] == settings.MAYI_TOURNAMENT_TICK_SECONDS
    # The task is the management command's tick: nothing to do on an empty site.
    assert tournament_tasks.tick.apply().get() == {
        "started": 0,
        "finished_by_bots": 0,
        "scored": 0,
        "paired": 0,
        "failed": 0,
    }


def test_a_queued_timer_reaches_the_broker_by_name(monkeypatch):
    from games.services import enqueue

    sent: list[tuple] = []
    monkeypatch.setattr(app, "send_task", lambda name, **kw: sent.append((name, kw)))
    enqueue.send_task(enqueue.CLOSE_BUY_WINDOW, (7, 3), queue="q")
    assert sent == [("games.tasks.close_buy_window", {"args": (7, 3), "queue": "q", "eta": None})]


def test_tasks_take_ids_and_a_missing_table_is_nothing_to_do(db):
    assert tasks.close_buy_window.apply(args=(999_999, 1)).get() is False
    assert tasks.timeout_turn.apply(args=(999_999, 1)).get() is False


def test_the_sweep_task_fires_through_the_services(alice, monkeypatch):
    from games.services import enqueue

    table = bank_table(alice, turn_seconds=60)
    # The deadline passed a while ago (the task itself reads the clock).
    table.__class__.objects.filter(pk=table.pk).update(
        turn_deadline=timezone.now() - timedelta(seconds=1)
    )
    monkeypatch.setattr(enqueue, "queue_deadlines", lambda *a, **k: 0)
    result = tasks.sweep_deadlines.apply().get()
    assert result["fired"] == 1
    assert Move.objects.filter(table=table, action__type="timeout").count() == 1
    assert tasks.sweep_deadlines.apply().get()["fired"] == 0


# The sources of Celery's Django fixup methods that mayi_site/celery.py replaces (and what they
# called), as last read: when Celery changes them, re-read _keep_the_pool_between_tasks.
CELERY_FIXUP = {
    "on_task_prerun": "dd8adcd71a974f40",
    "on_task_postrun": "bf5528dff9b582d2",
    "close_database": "886a5f0b2c37f5ba",
}


def test_the_celery_fixup_methods_we_replace_are_the_ones_we_read():
    import hashlib
    import inspect

    from celery.fixups.django import DjangoWorkerFixup

    from mayi_site.celery import REPLACED

    now = {
        name: hashlib.sha256(inspect.getsource(func).encode()).hexdigest()[:16]
        for name, func in REPLACED.items()
    }
    assert now == CELERY_FIXUP, (
        "Celery's DjangoWorkerFixup changed: re-read mayi_site/celery.py "
        f"_keep_the_pool_between_tasks, then record {now}"
    )
    assert DjangoWorkerFixup.on_task_prerun.pooled  # type: ignore[attr-defined]
    assert DjangoWorkerFixup.on_task_postrun.pooled  # type: ignore[attr-defined]


def test_a_task_gives_its_connection_back_and_keeps_the_pool(monkeypatch):
    from types import SimpleNamespace

    from celery.fixups.django import DjangoWorkerFixup

    released, pools_closed = [], []

    class Connection:
        def close_if_unusable_or_obsolete(self) -> None:
            released.append(self)

        def close_pool(self) -> None:
            pools_closed.append(self)

    conns = [Connection()]
    fixup = DjangoWorkerFixup.__new__(DjangoWorkerFixup)
    fixup._db = SimpleNamespace(
        connections=SimpleNamespace(all=lambda initialized_only=False: conns)
    )
    monkeypatch.setattr(fixup, "close_cache", lambda: None, raising=False)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    fixup.on_task_prerun(task)
    fixup.on_task_postrun(task)
    assert released == conns * 2 and pools_closed == []
