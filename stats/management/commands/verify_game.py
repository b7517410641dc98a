"""``manage.py verify_game <table id>``: check a finished game's deals against its seed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.verify import verify_game
from games.models import Move, Table


class Command(BaseCommand):
    help = (
        "Check that SHA-256 of a finished game's revealed seed is the commitment published at "
        "its start, and that dealing from the seed and replaying the move log rebuilds the "
        "stored game card for card. Exits non-zero when either fails."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            table = Table.objects.get(pk=options["table_id"])
        except Table.DoesNotExist:
            raise CommandError(f"there is no table {options['table_id']}") from None
        if table.status == Table.Status.ABORTED:
            # Its seed is revealed (nothing is left to hide), but there is no finished game to
            # rebuild: "its seed is still secret" said otherwise.
            raise CommandError(
                f"table {table.pk} was aborted by a moderator before its end: "
                "there is no finished game to verify"
            )
        if table.status != Table.Status.FINISHED or not (table.state or {}).get("game_over"):
            raise CommandError(f"table {table.pk} is not finished: its seed is still secret")
        moves = Move.objects.filter(table=table).order_by("seq").values_list("seat", "action")
        assert table.state is not None  # a finished game has its state
        result = verify_game(table.state, list(moves), table.seed_sha256 or None)
        out = self.stdout.write
        out(f"table {table.pk} ({table.ruleset}, {len(moves)} moves)")
        out(
            f"published SHA-256 of the seed: {table.seed_sha256 or '(none: started before commitments)'}"
        )
        out(f"revealed seed:                 {result.seed}")
        out(f"SHA-256 of the revealed seed:  {result.commitment}")
        if table.seed_sha256:
            out(f"commitment: {'OK' if result.commitment_ok else 'MISMATCH'}")
        for deal in result.deals:
            out(f"round {deal['round']} deal: {deal['fingerprint']}")
        if result.replay_ok:
            out("replay: OK (the move log, dealt from the seed, rebuilds the stored game)")
        else:
            out(f"replay: FAILED: {result.problem}")
        if not result.ok:
            raise CommandError("verification failed")
