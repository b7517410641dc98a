"""Run by tests/site/test_tournament_concurrency.py in a process of its own: one tick whose
pairing stops after the round's first table (it says PAIRING and sleeps), to be killed there."""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")
django.setup()

from games import services as games  # noqa: E402
from tournaments.services import tournaments_tick  # noqa: E402

real_start = games.table_start
started = {"tables": 0}


def start_then_hang(**kwargs: Any) -> Any:
    started["tables"] += 1
    if started["tables"] == 2:
        print("PAIRING", flush=True)
        time.sleep(120)
    return real_start(**kwargs)


games.table_start = start_then_hang  # type: ignore[assignment]
tournaments_tick(now=datetime.fromisoformat(sys.argv[1]))
