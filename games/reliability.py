"""A player's reliability as the platform shows it (issue 29): of their last games, how many
they finished in their seat, and how fast they move. The lobby, the table's players and the
join rules show and read it; stats computes and keeps it (stats/reliability.py) and gives it to
games through ``games.providers`` (games never imports stats).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NEW_BELOW = 5


@dataclass(frozen=True)
class Figure:
    """One player's reliability as the pages and the API show it."""

    finished: int
    games: int
    median_move_seconds: float | None
    # Turns their clock ran out on, over the same games (a table's join rule may cap it).
    timeouts: int = 0

    @property
    def share(self) -> float | None:
        if self.games < NEW_BELOW:
            return None
        return round(self.finished / self.games, 4)

    @property
    def new(self) -> bool:
        return self.games < NEW_BELOW

    @property
    def percent(self) -> int | None:
        share = self.share
        return None if share is None else int(share * 100)

    def as_json(self) -> dict[str, Any]:
        """The pinned shape of ``GET /api/players/<username>/stats`` ``reliability``."""
        return {
            "finished": self.finished,
            "games": self.games,
            "share": self.share,
            "median_move_seconds": self.median_move_seconds,
        }

    @property
    def label(self) -> str:
        """ "new", or "93%": the figure next to a name."""
        percent = self.percent
        return "new" if percent is None else f"{percent}%"

    @property
    def detail(self) -> str:
        """The counts behind the figure, in words (shown on hover and tap)."""
        if self.games == 0:
            text = "no finished game yet"
        else:
            text = (
                f"finished {self.finished} of their last {self.games} "
                f"game{'s' if self.games != 1 else ''} in their seat"
            )
        if self.median_move_seconds is not None:
            text += f"; moves in {move_time(self.median_move_seconds)} (median)"
        if self.new:
            text += f"; new: fewer than {NEW_BELOW} games"
        return text


NONE = Figure(finished=0, games=0, median_move_seconds=None)


def move_time(seconds: float) -> str:
    """A median time to move in words.

    >>> [move_time(s) for s in (4.2, 75, 5400, 200000)]
    ['4 s', '1 min', '1.5 h', '2.3 days']
    """
    if seconds < 60:
        return f"{round(seconds)} s"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    if seconds < 86400:
        return f"{seconds / 3600:.1f} h".replace(".0 h", " h")
    return f"{seconds / 86400:.1f} days".replace(".0 days", " days")
