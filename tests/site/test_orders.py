"""Standing orders answer "May I?" at once, in the transaction of the move that asks."""

from __future__ import annotations

from typing import Any

from games import engine, services
from games.engine import standing_answer
from games.models import Move, Seat, Table

from .conftest import SEED, error_of


def seats(table: Table) -> dict[int, Any]:
    return {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}


def others(table: Table) -> list[Any]:
    active = table.state["active"]
    return [u for p, u in seats(table).items() if p != active]


def test_never_buy_answers_before_the_window_opens(three_player_game, api_for):
    table = three_player_game
    for user in others(table):
        body = api_for(user).post(f"/api/tables/{table.pk}/orders", {"order": "never"}).json()
        assert body["table"]["buy_order"] == {"order": "never", "limit": None}
    table.refresh_from_db()
    # The orders answered early [D] for the card on the pile: two moves, no window yet.
    early = Move.objects.filter(table=table, action__standing_order=True)
    assert [m.action["type"] for m in early] == ["no_thanks", "no_thanks"]
    assert not any(m.by_bot for m in early)
    active_user = seats(table)[table.state["active"]]
    services.table_submit_action(
        table_id=table.pk,
        user=active_user,
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    table.refresh_from_db()
    # Nobody is waited on: the window closed in the draw's own transaction.
    assert table.state["window"] is None and table.window_deadline is None
    assert engine.seats_to_act(table.state) == [table.state["active"]]


def test_completes_buys_only_what_completes_and_up_to_the_limit(three_player_game):
    state = three_player_game.state
    seat = (state["active"] + 1) % 3
    hand = state["hands"][seat]
    # The order's answer for a card on the pile follows completes_meld, then the limit.
    st = dict(state, window=None, phase="draw", buys=[0, 0, 0])
    st["discard"] = state["discard"][:-1] + ["g13Y"]
    answer = standing_answer(st, seat, "completes", None)
    from games.engine.orders import completes_meld

    assert answer == ("may_i" if completes_meld(hand, "g13Y") else "no_thanks")
    assert standing_answer(st, seat, "never", None) == "no_thanks"
    st["buys"] = [3, 3, 3]
    assert standing_answer(st, seat, "completes", 2) == "no_thanks"


def test_buy_order_refusals(three_player_game, api_for, charlie, alice):
    table = three_player_game
    url = f"/api/tables/{table.pk}/orders"
    assert error_of(api_for(charlie).post(url, {"order": "never"})) == (403, "not_seated")
    assert error_of(api_for(alice).post(url, {"order": "always"}))[0] == 400
    assert error_of(api_for(alice).post(url, {"order": "completes", "limit": 99})) == (
        400,
        "bad_options",
    )
    assert error_of(api_for(alice).post(url, {"order": "completes", "limit": True}))[0] == 400
    body = api_for(alice).post(url, {"order": "completes", "limit": 1}).json()
    assert body["table"]["buy_order"] == {"order": "completes", "limit": 1}
    # Only my own order is shown to me.
    assert api_for(charlie).get(f"/api/tables/{table.pk}").json()["table"]["buy_order"] is None


def test_a_game_with_standing_orders_replays_exactly(three_player_game):
    from games.engine.bots import choose_action

    table = three_player_game
    users = seats(table)
    for user in users.values():
        services.seat_set_buy_order(table_id=table.pk, user=user, order="completes", limit=1)
    for _ in range(60):
        table.refresh_from_db()
        to_act = engine.seats_to_act(table.state)
        if not to_act:
            break
        seat = to_act[0]
        services.table_submit_action(
            table_id=table.pk,
            user=users[seat],
            action=choose_action(table.state, seat),
            expect_version=table.version,
        )
    table.refresh_from_db()
    assert Move.objects.filter(table=table, action__standing_order=True).count() > 10
    replay = engine.new_game(3, SEED)
    for move in Move.objects.filter(table=table).order_by("seq"):
        replay, _ = engine.apply(replay, move.seat, move.action)
    assert replay == table.state
