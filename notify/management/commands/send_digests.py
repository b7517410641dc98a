"""``manage.py send_digests [--now]``: send the daily digests due this hour (the hourly beat
task does the same); ``--now`` sends to every user whose digest is on, whatever their hour.
Either way a player gets at most one a day."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notify.digest import digests_send


class Command(BaseCommand):
    help = "Send the daily digest emails due now (--now: every user's, whatever the hour)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--now", action="store_true", help="every user whose digest is on, whatever the hour"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        counts = digests_send(every=options["now"])
        self.stdout.write(
            f"{counts['sent']} digest(s) sent, {counts['empty']} with nothing to say, "
            f"{counts['already']} already sent today"
        )
