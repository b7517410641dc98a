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

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")

app = Celery("mayi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
