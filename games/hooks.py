"""What the apps built on games do inside a table's transaction when a round or a game ends.

games sits at the bottom of the site: it imports none of the apps built on it. An app that
keeps something per round or per game (stats: the round records, the results and ratings)
registers a function here from its ``AppConfig.ready``; ``Transition.commit`` calls each one
under the table's row lock, inside the transaction that records the move, in the order they
were registered. So the statistics commit with the move, or not at all, as before, and the
layer test (tests/site/test_layers.py) keeps games from importing stats again.

A hook raises only for a bug: the move's transaction then rolls back with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    # Only for the types: stats imports this module from its apps.py, before the models load.
    from games.engine import State
    from games.models import Move, Seat, Table


class RoundEndedHook(Protocol):
    def __call__(
        self,
        *,
        table: Table,
        seats: Sequence[Seat],
        state: State,
        new_moves: Sequence[Move],
        now: datetime,
    ) -> object: ...


class GameEndedHook(Protocol):
    def __call__(self, *, table: Table, seats: Sequence[Seat], now: datetime) -> object: ...


_round_ended: list[RoundEndedHook] = []
_game_ended: list[GameEndedHook] = []


def on_round_ended(hook: RoundEndedHook) -> RoundEndedHook:
    """Register ``hook``: called with the table, its seats, the state after the moves and the
    moves not yet saved whose events end one round or more. Registering twice does nothing."""
    if hook not in _round_ended:
        _round_ended.append(hook)
    return hook


def on_game_ended(hook: GameEndedHook) -> GameEndedHook:
    """Register ``hook``: called once the game's last move is applied and the table holds the
    final state (its status finished). Registering twice does nothing."""
    if hook not in _game_ended:
        _game_ended.append(hook)
    return hook


def round_ended(
    *,
    table: Table,
    seats: Sequence[Seat],
    state: State,
    new_moves: Sequence[Move],
    now: datetime,
) -> None:
    for hook in _round_ended:
        hook(table=table, seats=seats, state=state, new_moves=new_moves, now=now)


def game_ended(*, table: Table, seats: Sequence[Seat], now: datetime) -> None:
    for hook in _game_ended:
        hook(table=table, seats=seats, now=now)
