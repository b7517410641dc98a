""" "The same deal at other tables": each table of a deal as it stood the same number of
moves into the same round of the game, rebuilt from its seed and moves by the replay's own
machinery (stats/replay.py), with the replay's access rules (finished games only, and none of
the deal while the viewer's own table still plays it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import engine
from stats.replay import (
    ReplayRefused,
    card_face,
    describe,
    replay_table,
    replayed_game,
    seat_names,
)
from tournaments.models import RoundTable


@dataclass
class Pane:
    table_id: int
    number: int
    refused: str | None = None
    words: list[str] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    melds: list[dict[str, Any]] = field(default_factory=list)
    discard_top: dict[str, Any] | None = None
    length: int = 0  # moves in the game round shown
    rounds: int = 0


def deal_pane(
    round_table: RoundTable, *, viewer: User | AnonymousUser, game_round: int, step: int
) -> Pane:
    """One table of the deal ``step`` moves into round ``game_round`` of its game (a round
    that was shorter there shows its end)."""
    pane = Pane(table_id=round_table.table_id, number=round_table.number)
    try:
        table, seat_rows = replay_table(table_id=round_table.table_id, viewer=viewer)
        game = replayed_game(table)
    except ReplayRefused as exc:
        pane.refused = exc.message
        return pane
    except engine.IllegalMove as exc:
        pane.refused = f"this game's move log does not replay from its seed: {exc}"
        return pane
    found = next((r for r in game.rounds if r["round"] == game_round), game.rounds[-1])
    pane.rounds = len(game.rounds)
    pane.length = found["last"] - found["first"]
    at = found["first"] + min(step, pane.length)
    state = game.start if at == 0 else game.replayed[at - 1][0]
    names = seat_names(seat_rows, table.seat_count)
    if at:
        move = game.moves[at - 1]
        events = game.replayed[at - 1][1] + game.platform.get(move.seq, [])
        pane.words = describe(events, names, seat=move.seat)
    shown = engine.view(state, None)
    active = shown.get("active_seat")
    pane.seats = [
        {
            "position": i,
            "name": names[i],
            "hand": [card_face(c) for c in hand],
            "total": shown["total_scores"][i],
            "active": i == active and not shown["game_over"],
        }
        for i, hand in enumerate(engine.hands_of(state))
    ]
    pane.melds = [
        {
            "kind": m["kind"],
            "owner": names[m["owner"]],
            "cards": [card_face(c) for c in m["cards"]],
        }
        for m in shown["melds"]
    ]
    top = shown.get("discard_top")
    pane.discard_top = card_face(top) if top else None
    return pane
