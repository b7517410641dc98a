"""The Celery app: deadline timers, the sweep that backs them up, and reminder emails.

Configuration is in ``settings.py`` (the ``CELERY_*`` names). With ``REDIS_URL`` the broker is
Redis; without it the broker is ``memory://`` and ``./scripts/start`` runs one worker with beat
inside the daphne process (``games/embedded.py``), so timers fire with nothing else running.

Production: one or more workers, and exactly ONE beat (two beats would sweep twice as often:
harmless, thanks to the row locks, but pointless)::

    celery -A mayi_site worker --loglevel=INFO           # as many as you like
    celery -A mayi_site beat --loglevel=INFO             # exactly one, anywhere
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.fixups.django import DjangoWorkerFixup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")

app = Celery("mayi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
    on_task_prerun.pooled = on_task_postrun.pooled = True  # type: ignore[attr-defined]
    DjangoWorkerFixup.on_task_prerun = on_task_prerun  # type: ignore[method-assign]
    DjangoWorkerFixup.on_task_postrun = on_task_postrun  # type: ignore[method-assign]


_keep_the_pool_between_tasks()
