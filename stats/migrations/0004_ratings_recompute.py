"""The ratings of every finished game computed again under the rules of issue 29 (an expelled
seat last, no rating for a game no person finished in their seat, the shown μ never rising
after a last place nor falling after a first): the stored numbers follow the rules."""

from django.db import migrations

from stats.recompute import ratings_recompute


def recompute(apps, schema_editor):
    ratings_recompute(
        game_result=apps.get_model("stats", "GameResult"), rating=apps.get_model("stats", "Rating")
    )


class Migration(migrations.Migration):
    dependencies = [("stats", "0003_reliability")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
