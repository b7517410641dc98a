"""A seat's round result is kept once (issue 27): the migrations copy each ``games.RoundResult``
with no ``stats.RoundRecord`` into one, ending where the log says its round ended, then drop
``RoundResult``. Run for real: back to before them, rows as the old code wrote them, forward."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services
from games.engine.bots import choose_action
from games.models import Table
from stats.models import RoundRecord

BEFORE = [("games", "0005_seat_bot_level"), ("stats", "0004_ratings_recompute")]
COPIED = ("seat", "user_id", "ruleset", "by_bot", "end_seq", "score", "penalty", "went_out")
COPIED += ("buys", "mayi_melds")


def migrate(targets: list[tuple[str, str]] | None = None) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    return executor


def play_rounds(table: Table, user: object, rounds: int) -> None:
    """alice plays (the bots answer in her requests) until ``rounds`` rounds are recorded."""
    while RoundRecord.objects.filter(table=table).values("round_no").distinct().count() < rounds:
        table.refresh_from_db()
        services.table_submit_action(
            table_id=table.pk,
            user=user,
            action=choose_action(table.state, 0),
            expect_version=table.version,
        )


@pytest.mark.django_db(transaction=True)
def test_results_without_a_record_are_copied_where_their_round_ended(alice, bot_game):
    play_rounds(bot_game, alice, 2)
    recorded = {
        (r.round_no, r.seat): {k: getattr(r, k) for k in COPIED}
        for r in RoundRecord.objects.filter(table=bot_game, round_no__lte=2)
    }
    assert len(recorded) == 6
    executor = migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        # Round 1 as the old code wrote it beside its records; round 2's records never
        # written (a round before the records existed), one of them with a note of its own
        # already there; a round 3 the log never ended.
        old.get_model("games", "RoundResult").objects.bulk_create(
            old.get_model("games", "RoundResult")(
                table_id=bot_game.pk,
                round_no=round_no,
                seat=seat,
                user_id=row["user_id"],
                ruleset=row["ruleset"],
                score=row["score"],
                went_out=row["went_out"],
                buys=row["buys"],
                mayi_melds=row["mayi_melds"],
                by_bot=row["by_bot"],
            )
            for (round_no, seat), row in [
                *recorded.items(),
                ((3, 0), {**recorded[1, 0], "score": 99}),
            ]
        )
        RoundRecord.objects.filter(table=bot_game, round_no=2).exclude(seat=1).delete()
        RoundRecord.objects.filter(table=bot_game, round_no=2, seat=1).update(turns=41)
    finally:
        migrate()
    after = {
        (r.round_no, r.seat): {k: getattr(r, k) for k in COPIED}
        for r in RoundRecord.objects.filter(table=bot_game)
    }
    assert after == recorded
    # The record already there is left as it was; the counters of a copied one are zero.
    assert RoundRecord.objects.get(table=bot_game, round_no=2, seat=1).turns == 41
    assert RoundRecord.objects.get(table=bot_game, round_no=2, seat=0).turns == 0
    assert "games_roundresult" not in connection.introspection.table_names()
