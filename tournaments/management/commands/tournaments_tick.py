"""``manage.py tournaments_tick``: one tick of the tournaments, what the Celery beat runs."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services import tournaments_tick


class Command(BaseCommand):
    help = (
        "Run one idempotent tick of the tournaments: start those whose registration closed, "
        "finish by the bots the tables of rounds past their deadline, score the rounds whose "
        "tables all ended and pair the next ones. Prints what it did as JSON."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(json.dumps(tournaments_tick()))
