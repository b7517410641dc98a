"""``manage.py verify_game <table id>`` or ``--all``: check finished games' deals against their
seeds (``--all``: every finished game, as the backup drill does after a restore)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import verify_game
from games.models import Move, Table


class Command(BaseCommand):
    help = (
        "Check that SHA-256 of a finished game's revealed seed is the commitment published at "
        "its start, and that dealing from the seed and replaying the move log rebuilds the "
        "stored game card for card. Exits non-zero when either fails. --all checks every "
        "finished game and prints one line each."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table_id", type=int, nargs="?")
        parser.add_argument("--all", action="store_true", help="every finished game, one line each")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            self.verify_all()
            return
        if options["table_id"] is None:
            raise CommandError("give a table id, or --all")
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

    def verify_all(self) -> None:
        """Every finished game (aborted ones have none to rebuild), in id order."""
        ids = list(
            Table.objects.filter(status=Table.Status.FINISHED)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        failed = []
        for table_id in ids:
            table = Table.objects.get(pk=table_id)
            if not (table.state or {}).get("game_over"):
                failed.append(table_id)
                self.stdout.write(f"table {table_id}: FAILED: finished without a final state")
                continue
            moves = list(
                Move.objects.filter(table=table).order_by("seq").values_list("seat", "action")
            )
            assert table.state is not None
            result = verify_game(table.state, moves, table.seed_sha256 or None)
            if result.ok:
                self.stdout.write(f"table {table_id}: OK ({table.ruleset}, {len(moves)} moves)")
            else:
                failed.append(table_id)
                why = result.problem or "the seed does not match its published SHA-256"
                self.stdout.write(f"table {table_id}: FAILED: {why}")
        self.stdout.write(f"{len(ids) - len(failed)} of {len(ids)} finished games verified")
        if failed:
            raise CommandError(f"{len(failed)} game(s) failed: {failed[:20]}")
