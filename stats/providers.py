"""What stats gives games (``games.providers.Trust``): players' reliability, the games they
finished in their seat, a finished game's rating changes. Registered from stats' AppConfig."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.reliability import Figure

from . import reliability, selectors
from .models import GameResult


class StatsTrust:
    def reliability(self, user_id: int) -> Figure:
        return reliability.reliability(user_id)

    def reliability_many(self, user_ids: Iterable[int | None]) -> dict[int, Figure]:
        return reliability.reliability_many(user_ids)

    def games_finished(self, user_id: int) -> int:
        return GameResult.objects.filter(user_id=user_id, by_bot=False, expelled=False).count()

    def rating_changes(self, table_id: int) -> list[dict[str, Any]]:
        return selectors.rating_changes(table_id)
