"""Every seat's round result kept once (issue 27): ``games.RoundResult`` said again what
``stats.RoundRecord`` says, and the next migration of games drops it. Its rows that have no
record yet (rounds that ended before the records existed and that no back-fill reached) are
copied here first, so the profile's sums and a member's data download lose nothing.

A copied record ends where the log says the round ended: ``end_seq`` is the seq of the move
whose events hold that round's ``round_ended`` (the next round's records of a game still being
played start reading the log there, stats/services.py), and its penalty is that event's. The
counters only a replay of the log gives (turns, windows, lay-offs, times) stay at zero. A
result whose round has no ``round_ended`` in the log is not copied: no record can say where
that round ended, and the back-fill, which rebuilds records from the log, would make none.
"""

from django.db import migrations
from django.db.models import Exists, OuterRef

ROUND_ENDED = "round_ended"  # the engine's event kind, as when this was written


def round_ends(move_model, table_id):
    """``{round number: (seq of the move that ended it, its round_ended event)}``."""
    ends = {}
    moves = (
        move_model.objects.filter(table_id=table_id, events__icontains=ROUND_ENDED)
        .order_by("seq")
        .values_list("seq", "events")
    )
    for seq, events in moves:
        for event in events or []:
            if isinstance(event, dict) and event.get("type") == ROUND_ENDED:
                ends.setdefault(int(event["round"]), (seq, event))
    return ends


def copy_round_results(apps, schema_editor):
    RoundResult = apps.get_model("games", "RoundResult")
    RoundRecord = apps.get_model("stats", "RoundRecord")
    Move = apps.get_model("games", "Move")
    recorded = RoundRecord.objects.filter(
        table_id=OuterRef("table_id"), round_no=OuterRef("round_no"), seat=OuterRef("seat")
    )
    missing = RoundResult.objects.exclude(Exists(recorded))
    # Table by table: one table's rows and log in memory at a time, and no cursor left open
    # on a query that reads the records while they are written.
    tables = missing.order_by("table_id").values_list("table_id", flat=True).distinct()
    for table_id in list(tables):
        ends = round_ends(Move, table_id)
        records = []
        for result in missing.filter(table_id=table_id).order_by("round_no", "seat"):
            end = ends.get(result.round_no)
            if end is None:
                continue
            seq, event = end
            records.append(
                RoundRecord(
                    table_id=table_id,
                    round_no=result.round_no,
                    seat=result.seat,
                    user_id=result.user_id,
                    ruleset=result.ruleset,
                    by_bot=result.by_bot,
                    end_seq=seq,
                    score=result.score,
                    # Every round_ended event has carried the penalties since the engine's first.
                    penalty=event["penalties"][result.seat],
                    went_out=result.went_out,
                    buys=result.buys,
                    mayi_melds=result.mayi_melds,
                )
            )
        RoundRecord.objects.bulk_create(records, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0004_ratings_recompute"),
        ("games", "0005_seat_bot_level"),
    ]

    operations = [migrations.RunPython(copy_round_results, migrations.RunPython.noop)]
