"""A seat's round result is kept once, as ``stats.RoundRecord`` (issue 27): the rows of
``RoundResult`` that had no record were copied first (stats 0005)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_seat_bot_level"),
        ("stats", "0005_round_results_copied"),
    ]

    operations = [migrations.DeleteModel(name="RoundResult")]
