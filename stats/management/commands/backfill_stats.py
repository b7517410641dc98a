"""``manage.py backfill_stats [--table ID ...]``: statistics for finished games that have none."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from stats.services import stats_backfill


class Command(BaseCommand):
    help = (
        "Replay the move log of each finished game without statistics through the engine and "
        "write its round records, results, ratings and aggregates (oldest first)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", type=int, action="append", help="only these tables")

    def handle(self, *args: Any, **options: Any) -> None:
        count = stats_backfill(table_ids=options["table"])
        self.stdout.write(f"filled the statistics of {count} finished game(s)")
