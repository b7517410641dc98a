"""``manage.py recompute_ratings``: every rating computed again under the current rules."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from stats.models import GameResult, Rating
from stats.recompute import ratings_recompute


class Command(BaseCommand):
    help = (
        "Rate every finished game again, oldest first, under the rules of stats/ratings.py, "
        "and rewrite the stored ratings and each game's rating before and after."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = ratings_recompute(game_result=GameResult, rating=Rating)
        self.stdout.write(f"rated {count} finished game(s) again")
