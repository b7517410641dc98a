"""The Celery app: deadline timers, the sweep that backs them up, and reminder emails.

Configuration is in ``settings.py`` (the ``CELERY_*`` names). With ``REDIS_URL`` the broker is
Redis; without it the broker is ``memory://`` and ``./scripts/start`` runs one worker with beat
inside the daphne process (``games/embedded.py``), so timers fire with nothing else running.

Production: one or more workers, and exactly ONE beat (two beats would sweep twice as often:
harmless, thanks to the row locks, but pointless)::

    celery -A mayi_site worker --loglevel=INFO           # as many as you like
    celery -A mayi_site beat --loglevel=INFO             # exactly one, anywhere

The reminder emails and the analysis of finished games have queues (and workers) of their own
(``MAYI_MAIL_QUEUE``, ``MAYI_ANALYSIS_QUEUE``; deploy/Procfile, docs/ANALYSIS.md).
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from celery import Celery, signals
from celery.fixups.django import DjangoWorkerFixup
from django.apps import apps as django_apps
from prometheus_client import REGISTRY, CollectorRegistry, multiprocess, start_http_server

from mayi_site import heartbeat, logs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")

app = Celery("mayi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every installed app's tasks module (games, notify, tournaments, moderation, privacy...): a
# worker or beat imports them as it starts (Celery's import_modules signal).
app.autodiscover_tasks()


@app.on_after_finalize.connect
def _register_every_apps_tasks(sender: Celery, **kwargs: Any) -> None:
    """Any other process that asks the app for its tasks (``app.tasks``: the embedded worker,
    a shell, the tests) gets every app's too, not only those some import happened to load: a
    task queued by name that its worker does not know is lost (a push, a digest, a tournament's
    step). Only once Django's apps are loaded (the tasks import their models); a process that
    finalizes the app earlier still has the worker's discovery above."""
    if django_apps.ready:
        sender.autodiscover_tasks(force=True)


# Celery's methods replaced below, kept for the guard test.
REPLACED: dict[str, Any] = {}


def _keep_the_pool_between_tasks() -> None:
    """Between two tasks, give the database connection back to the pool, as Django does
    between two requests, instead of closing the whole pool.

    Celery's Django fixup closes every connection before and after each task and, in a prefork
    child with Django's pool on, closes the pool itself: each task then made a new pool, which
    opened new PostgreSQL connections (a backend forked and authenticated for each) for a task
    that runs one or two statements. Under bench/load.py that was most of a timer worker's CPU
    (py-spy: 22% of its samples opening connections; docs/PERFORMANCE.md). The fork itself
    still closes what the parent opened (``on_worker_process_init``, unchanged), and a
    connection that failed or is unusable is closed, as after a request; the pool checks each
    one as it hands it out (mayi_site/dbpool.py). tests/site/test_celery_config.py fails when
    Celery changes the methods replaced here.
    """

    def release_connections(self: DjangoWorkerFixup) -> None:
        for conn in self._db.connections.all(initialized_only=True):
            conn.close_if_unusable_or_obsolete()

    def on_task_prerun(self: DjangoWorkerFixup, sender: Any, **kwargs: Any) -> None:
        if not getattr(sender.request, "is_eager", False):
            release_connections(self)

    def on_task_postrun(self: DjangoWorkerFixup, sender: Any, **kwargs: Any) -> None:
        if not getattr(sender.request, "is_eager", False):
            release_connections(self)
            self.close_cache()

    if getattr(DjangoWorkerFixup.on_task_prerun, "pooled", False):
        return
    REPLACED.update(
        on_task_prerun=DjangoWorkerFixup.on_task_prerun,
        on_task_postrun=DjangoWorkerFixup.on_task_postrun,
        close_database=DjangoWorkerFixup.close_database,  # what they called
    )
    # A mark on the functions (the check above reads it): functions take attributes, which
    # mypy's Callable type does not declare.
    on_task_prerun.pooled = on_task_postrun.pooled = True  # type: ignore[attr-defined]
    DjangoWorkerFixup.on_task_prerun = on_task_prerun
    DjangoWorkerFixup.on_task_postrun = on_task_postrun


_keep_the_pool_between_tasks()


# Tasks whose first argument is a table id (its log lines name the table).
TABLE_TASKS = frozenset({"games.tasks.close_buy_window", "games.tasks.timeout_turn"})
REQUEST_ID_HEADER = "mayi_request_id"


@signals.before_task_publish.connect
def _carry_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """A task queued while answering a request carries the request's id in its headers."""
    rid = logs.request_id.get()
    if rid and headers is not None:
        headers[REQUEST_ID_HEADER] = rid


@signals.task_prerun.connect
def _task_log_context(task: Any = None, args: Any = None, **kwargs: Any) -> None:
    # Celery puts a message's custom headers on the request (5.x), or under ``headers``.
    headers = getattr(task.request, "headers", None) or {}
    rid = (
        getattr(task.request, REQUEST_ID_HEADER, None)
        or headers.get(REQUEST_ID_HEADER)
        or logs.new_request_id()
    )
    table_id = args[0] if task.name in TABLE_TASKS and args else None
    task.request.mayi_log_tokens = logs.task_context(rid=rid, table_id=table_id)


@signals.task_postrun.connect
def _task_log_context_end(task: Any = None, **kwargs: Any) -> None:
    tokens = getattr(task.request, "mayi_log_tokens", None)
    if tokens is not None:
        # Set in another context (a thread pool): nothing to undo here.
        with contextlib.suppress(ValueError):
            logs.reset_task_context(tokens)


@signals.worker_ready.connect
def _start_heartbeat(**kwargs: Any) -> None:
    """GET /readyz wants a worker's heartbeat within 2 minutes (mayi_site/health.py)."""
    heartbeat.start()


@signals.worker_init.connect
def _serve_worker_metrics(**kwargs: Any) -> None:
    """``MAYI_WORKER_METRICS_PORT``: this worker's metrics over HTTP on 127.0.0.1. Its prefork
    children count in files of ``PROMETHEUS_MULTIPROC_DIR`` (one directory per worker, empty at
    start: deploy/systemd/mayi-timers@.service), summed here at each scrape."""
    port = os.environ.get("MAYI_WORKER_METRICS_PORT")
    if not port:
        return
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    start_http_server(int(port), addr="127.0.0.1", registry=registry)


@signals.worker_process_shutdown.connect
def _child_gone(pid: int | None = None, **kwargs: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid or os.getpid())
