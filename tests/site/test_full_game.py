"""Whole games through the HTTP API, with the bot logic on the client side."""

from __future__ import annotations

from collections import defaultdict

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.engine.bots import choose_action
from games.models import Move, Seat
from stats.models import RoundRecord

from .conftest import SEED

# Queries a round's end adds to a move (the round's log read back, its records), and
# the game's end adds to those (stats/services.py: records read, ratings and aggregates
# made if missing, locked and written, the game's results; issue 29: each person's reliability
# made if missing, locked and written, and the answer's rating changes read back; issue 33:
# the game's pending analysis, none queued here: tests/conftest.py).
ROUND_END = 2
GAME_END = 13


def clock_stops(before: dict, after: dict, seat: int | None = None) -> bool:
    """Did the turn running in ``before`` (``seat``'s, if given) stop? Its time is then charged
    to the seat's bank: one more query (games/services/clocks.py)."""
    if before["phase"] not in ("draw", "play") or (seat is not None and before["active"] != seat):
        return False
    return (
        after["game_over"]
        or after["round"] != before["round"]
        or after["active"] != before["active"]
        or after["phase"] not in ("draw", "play")
    )


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
        before = local
        local, events = engine.apply(local, seat, action)
        body = response.json()
        # The seat's own view, with the melds its hand makes (the page's "Contract melds"
        # sort; none once the game is over).
        melds = [] if local["game_over"] else engine.hand_melds(local, seat)
        assert body["view"] == {**engine.view(local, seat), "hand_melds": melds}
        assert body["table"]["version"] == version + 1
        version += 1
        actions += 1
        kind = "round_end" if any(e["type"] == "round_ended" for e in events) else "move"
        if local["game_over"]:
            kind = "game_end"
        if clock_stops(before, local):
            kind += "+clock"
        queries[kind].append((local["round"], len(ctx.captured_queries)))

    assert body["table"]["status"] == "finished"
    assert body["view"]["game_over"] and body["view"]["places"]
    assert body["table"]["turn_deadline"] is None and body["table"]["window_deadline"] is None
    table.refresh_from_db()
    assert table.move_count == actions == Move.objects.filter(table=table).count()
    assert RoundRecord.objects.filter(table=table).count() == 7 * 3
    totals = [0, 0, 0]
    for result in RoundRecord.objects.filter(table=table):
        totals[result.seat] += result.score
        assert result.user_id == clients[result.seat].user.pk
    assert totals == local["totals"]

    # One query count for every ordinary action, round 1 as round 7; a round's end adds two
    # (its moves read back and its records, stats/services.py), the game's end
    # GAME_END more (results, ratings, aggregates, the seats' reliability: 3, the answer's rating
    # changes: 1), and so does the end of a turn (its time is charged to the seat's bank), except on
    # PostgreSQL, where that write rides in the move's own statement (services/rows.py).
    move_counts = {count for _, count in queries["move"]}
    assert len(move_counts) == 1, queries["move"]
    base = move_counts.pop()
    bank = 0 if connection.vendor == "postgresql" else 1
    assert {count for _, count in queries["move+clock"]} == {base + bank}
    assert {count for _, count in queries["round_end+clock"]} == {base + ROUND_END + bank}
    # A round that ends on an answer (a held discard goes out) stops no running clock.
    assert {count for _, count in queries["round_end"]} <= {base + ROUND_END}
    assert {c for _, c in queries["game_end"] + queries["game_end+clock"]} <= {
        base + ROUND_END + GAME_END,
        base + ROUND_END + GAME_END + bank,
    }
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
    counts: dict[tuple[bool, bool], set[int]] = defaultdict(set)
    requests = bot_moves_seen = 0
    while body["table"]["status"] == "playing":
        table.refresh_from_db()
        assert engine.seats_to_act(table.state) == [0]
        action = choose_action(table.state, 0)
        results_before = RoundRecord.objects.filter(table=table).count()
        moves_before = table.move_count
        state_before = table.state
        with CaptureQueriesContext(connection) as ctx:
            response = client.act(table.pk, body["table"]["version"], **action)
        assert response.status_code == 200, response.content
        body = response.json()
        requests += 1
        table.refresh_from_db()
        bot_moves_seen = max(bot_moves_seen, table.move_count - moves_before - 1)
        round_ended = RoundRecord.objects.filter(table=table).count() != results_before
        after, _ = engine.apply(state_before, 0, action)
        counts[round_ended, clock_stops(state_before, after, 0)].add(len(ctx.captured_queries))
    assert body["view"]["game_over"]
    # However many moves the bots made in a request (up to bot_moves_seen), one count.
    assert bot_moves_seen >= 3
    # The end of alice's turn adds one query (her bank; on PostgreSQL it rides in the move's
    # own statement), a round's end ROUND_END more, the game's GAME_END more again.
    assert len(counts[False, False]) == 1, counts
    base = next(iter(counts[False, False]))
    bank = 0 if connection.vendor == "postgresql" else 1
    assert counts[False, True] == {base + bank}, counts
    # One person: the game is not rated, so no rating is written (one query fewer).
    ends = {base + ROUND_END + extra for extra in (0, 1, GAME_END - 1, GAME_END, GAME_END + 1)}
    assert counts[True, False] | counts[True, True] <= ends, counts
    bot_moves = Move.objects.filter(table=table, by_bot=True).count()
    assert bot_moves > requests
    assert RoundRecord.objects.filter(table=table, by_bot=True).count() == 14
