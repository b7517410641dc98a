"""Whole games through the HTTP API, with the bot logic on the client side."""

from __future__ import annotations

from collections import defaultdict

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.engine.bots import choose_action
from games.models import Move, RoundResult, Seat

from .conftest import SEED


def test_three_people_play_a_whole_game_through_the_api(three_player_game, api_for):
    """Each client decides from its own copy of the game (it knows the seed, as a test may),
    sends the action with its token, and checks the server's view equals its own. The SQL
    queries per action must not grow as the game goes on."""
    table = three_player_game
    clients = {
        s.position: api_for(s.user) for s in Seat.objects.filter(table=table).select_related("user")
    }
    local = engine.new_game(3, SEED)
    version = table.version
    queries: dict[str, list[tuple[int, int]]] = defaultdict(list)
    actions = 0
    while not local["game_over"]:
        seat = engine.seats_to_act(local)[0]
        action = choose_action(local, seat)
        assert action is not None
        with CaptureQueriesContext(connection) as ctx:
            response = clients[seat].act(table.pk, version, **action)
        assert response.status_code == 200, (action, response.content)
        local, events = engine.apply(local, seat, action)
        body = response.json()
        assert body["view"] == engine.view(local, seat)
        assert body["table"]["version"] == version + 1
        version += 1
        actions += 1
        kind = "round_end" if any(e["type"] == "round_ended" for e in events) else "move"
        queries[kind].append((local["round"], len(ctx.captured_queries)))

    assert body["table"]["status"] == "finished"
    assert body["view"]["game_over"] and body["view"]["places"]
    assert body["table"]["turn_deadline"] is None and body["table"]["window_deadline"] is None
    table.refresh_from_db()
    assert table.move_count == actions == Move.objects.filter(table=table).count()
    assert RoundResult.objects.filter(table=table).count() == 7 * 3
    totals = [0, 0, 0]
    for result in RoundResult.objects.filter(table=table):
        totals[result.seat] += result.score
        assert result.user_id == clients[result.seat].user.pk
    assert totals == local["totals"]

    # One query count for every ordinary action, round 1 as round 7; a round's end adds one.
    move_counts = {count for _, count in queries["move"]}
    assert len(move_counts) == 1, queries["move"]
    assert {count for _, count in queries["round_end"]} == {move_counts.pop() + 1}
    assert {r for r, _ in queries["move"]} == set(range(1, 8))

    # The move log rebuilds the game exactly.
    replay = engine.new_game(3, SEED)
    for move in Move.objects.filter(table=table).order_by("seq"):
        replay, _ = engine.apply(replay, move.seat, move.action)
    assert replay == table.state


def test_with_bots_a_person_only_waits_on_people(bot_game, alice, api_for):
    """alice against two server-side bots: every answer she gets is her turn, a window she may
    answer, or the end; the queries per request stay constant however many moves bots make."""
    table = bot_game
    client = api_for(alice)
    body = client.get(f"/api/tables/{table.pk}").json()
    counts: dict[bool, set[int]] = {False: set(), True: set()}
    requests = bot_moves_seen = 0
    while body["table"]["status"] == "playing":
        table.refresh_from_db()
        assert engine.seats_to_act(table.state) == [0]
        action = choose_action(table.state, 0)
        results_before = RoundResult.objects.filter(table=table).count()
        moves_before = table.move_count
        with CaptureQueriesContext(connection) as ctx:
            response = client.act(table.pk, body["table"]["version"], **action)
        assert response.status_code == 200, response.content
        body = response.json()
        requests += 1
        table.refresh_from_db()
        bot_moves_seen = max(bot_moves_seen, table.move_count - moves_before - 1)
        round_ended = RoundResult.objects.filter(table=table).count() != results_before
        counts[round_ended].add(len(ctx.captured_queries))
    assert body["view"]["game_over"]
    # However many moves the bots made in a request (up to bot_moves_seen), one count.
    assert bot_moves_seen >= 3
    assert len(counts[False]) == 1, counts
    assert counts[True] == {next(iter(counts[False])) + 1}, counts
    bot_moves = Move.objects.filter(table=table, by_bot=True).count()
    assert bot_moves > requests
    assert RoundResult.objects.filter(table=table, by_bot=True).count() == 14
