"""``manage.py record_timeout_plays [--table ID ...] [--dry-run]``: give the timeouts recorded
before timeouts carried their plays those plays (``games/services/timeouts.py``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services.timeouts import tables_record_timeout_plays


class Command(BaseCommand):
    help = (
        "Find, from its own events, the actions each timeout recorded without them played, "
        "and store them in the move, so that the game replays the same whatever the bots "
        "become. A table is rewritten only if its whole log then replays to its stored state. "
        "Exits non-zero when a table had to be left as it was."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", type=int, action="append", help="only these tables")
        parser.add_argument("--dry-run", action="store_true", help="check and count only")

    def handle(self, *args: Any, **options: Any) -> None:
        done = tables_record_timeout_plays(table_ids=options["table"], dry_run=options["dry_run"])
        verb = "would get" if options["dry_run"] else "got"
        self.stdout.write(
            f"{done.tables} table(s) with timeouts recorded without their plays: "
            f"{done.rewritten} timeout(s) {verb} their plays"
        )
        for table_id, problem in sorted(done.problems.items()):
            self.stdout.write(f"table {table_id} left as it was: {problem}")
        if done.problems:
            raise CommandError(f"{len(done.problems)} table(s) left as they were")
