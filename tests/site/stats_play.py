"""Whole games played through the services (people's moves chosen by the bot policy), for the
tests of what a finished game leaves behind: records, results, replays, the seed."""

from __future__ import annotations

from typing import Any

from games import engine, services
from games.engine.bots import choose_action
from games.models import Seat, Table


def play_game(
    host: Any,
    others: list[Any],
    *,
    bots: int = 0,
    seed: str = "stats-play",
    public: bool = True,
    ruleset: str = "bga",
) -> Table:
    """``host`` and ``others`` (people) and ``bots`` bots play a whole game to its end."""
    table = services.table_create(
        host=host, seats=1 + len(others) + bots, public=public, ruleset=ruleset
    )
    for user in others:
        services.table_join(user=user, invite_code=table.invite_code)
    if bots:
        services.table_fill_with_bots(user=host, table_id=table.pk)
    services.table_start(user=host, table_id=table.pk, seed=seed)
    users = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    table.refresh_from_db()
    while table.status == Table.Status.PLAYING:
        seat = next(s for s in engine.seats_to_act(table.state) if users[s] is not None)
        action = choose_action(table.state, seat)
        assert action is not None
        table, _ = services.table_submit_action(
            table_id=table.pk, user=users[seat], action=action, expect_version=table.version
        )
    return table
