"""Ratings computed again from every finished game, in the order the games finished, under the
rules of ``stats/ratings.py`` as they are now: the stored numbers follow the rules.

``ratings_recompute`` takes the model classes, so the data migration that brought the rules of
issue 29 (``stats/0004_ratings_recompute``) runs it on its own historical models, and
``manage.py recompute_ratings`` on the current ones.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction

from . import ratings


def ratings_recompute(*, game_result: Any, rating: Any) -> int:
    """Rate every finished game again, oldest first, from the newcomer's rating: rewrite each
    result's rating before and after (and whether it is rated) and each player's ratings.
    ``game_result`` and ``rating`` are the model classes (``stats.models`` or a migration's).
    Returns the number of games rated."""
    rated_games = 0
    with transaction.atomic():
        results = list(game_result.objects.order_by("finished", "table_id", "seat"))
        by_table: dict[int, list[Any]] = defaultdict(list)
        order: list[int] = []
        for r in results:
            if r.table_id not in by_table:
                order.append(r.table_id)
            by_table[r.table_id].append(r)
        current: dict[tuple[int, str], tuple[float, float, int]] = {}
        for table_id in order:
            seats = by_table[table_id]
            ruleset = seats[0].ruleset
            entrants = []
            for s in seats:
                mu, sigma, _ = current.get((s.user_id, ruleset), (ratings.MU, ratings.SIGMA, 0))
                entrants.append(
                    ratings.Entrant(
                        key=s.seat,
                        human=s.user_id is not None and not s.by_bot,
                        expelled=s.expelled,
                        place=s.place,
                        mu=mu,
                        sigma=sigma,
                    )
                )
            new = ratings.rate(entrants)
            if new:
                rated_games += 1
            for s, e in zip(seats, entrants, strict=True):
                after = new.get(s.seat)
                s.rated = after is not None
                s.mu_before = e.mu if after else None
                s.sigma_before = e.sigma if after else None
                s.mu_after = after[0] if after else None
                s.sigma_after = after[1] if after else None
                if after is not None:
                    games = current.get((s.user_id, ruleset), (0.0, 0.0, 0))[2]
                    current[s.user_id, ruleset] = (after[0], after[1], games + 1)
        game_result.objects.bulk_update(
            results, ["rated", "mu_before", "sigma_before", "mu_after", "sigma_after"], 500
        )
        rows = {(r.user_id, r.ruleset): r for r in rating.objects.all()}
        for (user_id, ruleset), (mu, sigma, games) in current.items():
            row = rows.pop((user_id, ruleset), None)
            if row is None:
                rating.objects.create(
                    user_id=user_id, ruleset=ruleset, mu=mu, sigma=sigma, games=games
                )
            else:
                row.mu, row.sigma, row.games = mu, sigma, games
                row.save(update_fields=["mu", "sigma", "games"])
        # Ratings no rated game backs any more (every game of theirs unrated now): a newcomer's.
        for row in rows.values():
            row.mu, row.sigma, row.games = ratings.MU, ratings.SIGMA, 0
            row.save(update_fields=["mu", "sigma", "games"])
    return rated_games
