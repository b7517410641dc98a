"""The embedded Celery worker and beat of ``./scripts/start`` (no REDIS_URL, nothing else
running): a real Celery worker consuming the ``memory://`` broker, in a daemon thread of the
daphne process, and beat in another thread of the same process.

The memory broker lives in this process, so the tasks the site queues after each commit and
the sweeps beat queues are all consumed here. This is the only beat of the embedded mode: with
REDIS_URL, scripts/start runs a worker and one beat as separate processes instead.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from django.apps import apps
from django.conf import settings

from mayi_site.celery import app

logger = logging.getLogger("games.embedded")

ENV_FLAG = "MAYI_EMBEDDED_WORKER"
_started = False
_lock = threading.Lock()


def wanted() -> bool:
    return os.environ.get(ENV_FLAG, "") == "1"


def start() -> None:
    """Start the worker and beat threads once per process (called from AppConfig.ready)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    # Not here: building a worker sets Django up, and ready() runs while Django sets up.
    threading.Thread(target=_run, name="celery-worker", daemon=True).start()


def _run() -> None:
    while not apps.ready:
        time.sleep(0.05)
    # Here, not at the top: the worker's modules (seconds to import on a busy machine) load
    # only in the one process that runs the embedded worker.
    from celery.beat import EmbeddedService
    from celery.worker import WorkController

    if not settings.CELERY_BROKER_URL.startswith("memory://"):
        logger.warning("embedded worker with broker %s: is this meant?", settings.CELERY_BROKER_URL)
    worker = WorkController(
        app=app,
        # Threads: the sweep and the timers may run side by side; the row locks order them.
        # A third, as a game's analysis (its own queue) may hold one: in slices of
        # MAYI_ANALYSIS_SLICE_SECONDS, so a timer never waits behind a whole game's.
        pool="threads",
        concurrency=3,
        hostname=f"embedded-{os.getpid()}@localhost",
        queues=[
            settings.CELERY_TASK_DEFAULT_QUEUE,
            settings.MAYI_MAIL_QUEUE,
            settings.MAYI_ANALYSIS_QUEUE,
        ],
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    # thread=True: a forked beat would queue into its own copy of the memory broker.
    EmbeddedService(app, thread=True, schedule_filename=_schedule_file()).start()
    logger.info("embedded Celery worker and beat started")
    worker.start()


def _schedule_file() -> str:
    return str(settings.BASE_DIR / ".celerybeat-schedule")
