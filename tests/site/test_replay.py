"""Replays and deals anyone can verify (issue 12)."""

from __future__ import annotations

import hashlib
import io
import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from games import engine, services
from games.engine.bots import choose_action
from games.engine.verify import verify_game
from games.models import Move, Seat, Table
from moderation.services.tables import table_abort
from tests.conftest import make_moderator
from tests.engine.helpers import change_the_bots

from .conftest import SEED
from .stats_play import play_game
from .test_clocks import LATER, wait_for_own_turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob):
    return play_game(alice, [bob], bots=1, seed="replay-seed")


def page(user, path):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(path)


def frames_of(user, table_id):
    """The replay's one fetch, each frame rebuilt in full as static/js/replay.js does."""
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/api/tables/{table_id}/replay")
    assert response.status_code == 200, response.content[:300]
    game = response.json()
    full, view, hands = [], {}, []
    for f in game["frames"]:
        view = {**view, **f["view"]}
        hands = hands[:]
        for seat, cards in f["hands"].items():
            seat = int(seat)
            hands += [[]] * (seat + 1 - len(hands))
            hands[seat] = cards
        full.append({**f, "view": view, "hands": hands})
    return game, full


def test_the_replay_rebuilds_the_stored_game_card_for_card(finished, carol):
    moves = list(Move.objects.filter(table=finished).order_by("seq"))
    result = verify_game(finished.state, [(m.seat, m.action) for m in moves], finished.seed_sha256)
    assert result.ok, result.problem
    assert [d["round"] for d in result.deals] == list(range(1, 8))

    # Anyone may watch a public finished game, even signed out: the page, then one fetch.
    response = page(None, f"/tables/{finished.pk}/replay/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Verified:" in html and 'id="server-commitment">matches' in html
    assert f'data-source="/api/tables/{finished.pk}/replay"' in html
    assert f"{len(moves)} moves in 7 rounds" in html
    assert "<script>" not in html and "style=" not in html
    assert 'src="/static/js/replay.js"' in html
    # The page no longer carries the game: it is drawn from the fetch, every step in the page.
    assert len(html) < 20000

    game, frames = frames_of(None, finished.pk)
    assert game["total"] == len(moves) and len(frames) == len(moves) + 1
    assert [r["round"] for r in game["rounds"]] == list(range(1, 8))
    # The last frame is the stored end, card for card; every card has its face.
    last = frames[-1]
    assert last["hands"] == finished.state["hands"]
    assert last["view"]["total_scores"] == finished.state["totals"]
    assert last["view"]["game_over"] is True
    for hand in last["hands"]:
        for card in hand:
            assert card in game["faces"]
    # The replay shows the hands, never the stock's order or the seed in a frame.
    for frame in game["frames"]:
        assert not {"stock", "seed", "hand", "faces"} & set(frame["view"])
        assert "stock_next" not in frame


def test_the_frames_are_the_game_as_it_stood_after_each_move(finished):
    from games.engine import initial_state, replay

    start = initial_state(finished.state)
    game, frames = frames_of(None, finished.pk)
    assert frames[0]["hands"] == start["hands"] and frames[0]["move"] == 0
    assert frames[0]["events"][0]["type"] == "round_started"
    moves = list(Move.objects.filter(table=finished).order_by("seq"))
    for n, (after, events) in enumerate(replay(start, [(m.seat, m.action) for m in moves]), 1):
        if n % 37 and n != len(moves):
            continue
        assert frames[n]["hands"] == after["hands"], n
        assert frames[n]["view"]["discard_size"] == len(after["discard"])
        assert frames[n]["view"]["stock_size"] == len(after["stock"])
        assert [e["type"] for e in frames[n]["events"]] == [e["type"] for e in events]
        assert frames[n]["seat"] == moves[n - 1].seat
    # Each frame holds only what changed: a whole game is one small answer.
    raw = Client().get(f"/api/tables/{finished.pk}/replay", HTTP_ACCEPT_ENCODING="gzip")
    assert raw["Content-Encoding"] == "gzip" and len(raw.content) < 120_000
    assert sum(len(f["hands"]) for f in game["frames"][1:]) < 2 * len(moves)


def test_the_replay_api_has_the_page_s_access_rules(three_player_game, alice, bob, charlie):
    refused = Client().get(f"/api/tables/{three_player_game.pk}/replay")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "game_not_finished"
    assert Client().get("/api/tables/999999/replay").json()["error"]["code"] == "table_not_found"
    table = play_game(alice, [bob], bots=1, seed="private-api-replay", public=False)
    client = Client()
    client.force_login(charlie)
    refused = client.get(f"/api/tables/{table.pk}/replay")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_seated"
    assert frames_of(bob, table.pk)[0]["total"] > 0


def test_a_game_in_play_has_no_replay(three_player_game, alice):
    response = page(alice, f"/tables/{three_player_game.pk}/replay/")
    assert response.status_code == 403
    assert b"not finished" in response.content
    assert b'data-card="w' not in response.content  # no card of any hand
    assert page(alice, "/tables/999999/replay/").status_code == 404


def test_an_aborted_game_says_it_has_no_replay(three_player_game, alice, django_user_model):
    # An aborted game never ends: "its replay opens when it ends" promised a replay to come.
    moderator = make_moderator("mod", "game")
    table_abort(moderator=moderator, table_id=three_player_game.pk, reason="a test")
    response = page(alice, f"/tables/{three_player_game.pk}/replay/")
    assert response.status_code == 403
    assert b"aborted this game" in response.content
    assert b"opens when it ends" not in response.content
    assert b'data-card="w' not in response.content


def test_a_private_finished_game_is_replayed_for_its_players_only(alice, bob, charlie):
    table = play_game(alice, [bob], bots=1, seed="private-replay", public=False)
    assert page(bob, f"/tables/{table.pk}/replay/").status_code == 200
    refused = page(charlie, f"/tables/{table.pk}/replay/")
    assert refused.status_code == 403 and b"private" in refused.content


def test_the_seed_is_committed_at_the_start_and_revealed_at_the_end(alice, bob, api_for):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    client = api_for(alice)
    meta = client.get(f"/api/tables/{table.pk}").json()["table"]
    published = meta["seed_sha256"]
    assert published == hashlib.sha256(SEED.encode()).hexdigest()
    assert meta["seed"] is None
    users = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    table.refresh_from_db()
    # While it is played, the seed is in no answer: the table, its page, the moves' answers.
    seen = [
        client.get(f"/api/tables/{table.pk}").content,
        page(alice, f"/tables/{table.pk}/").content,
    ]
    while table.status == Table.Status.PLAYING:
        seat = next(s for s in engine.seats_to_act(table.state) if users[s] is not None)
        body = api_for(users[seat]).act(table.pk, table.version, **choose_action(table.state, seat))
        assert body.status_code == 200, body.content
        table.refresh_from_db()
        if table.status == Table.Status.PLAYING:
            seen.append(body.content)
    for raw in seen:
        assert SEED.encode() not in raw
    # The page's side column publishes the hash from the start.
    assert published.encode() in seen[1]
    end = client.get(f"/api/tables/{table.pk}").json()
    assert end["table"]["seed"] == SEED
    assert hashlib.sha256(end["table"]["seed"].encode()).hexdigest() == published
    assert end["table"]["seed_sha256"] == published


def test_verify_game_checks_the_commitment_and_the_deals(finished):
    out = io.StringIO()
    call_command("verify_game", str(finished.pk), stdout=out)
    text = out.getvalue()
    assert "commitment: OK" in text and "replay: OK" in text
    assert text.count(" deal: ") == 7

    # A seed that is not the one committed to is caught.
    state = dict(finished.state, seed="not-the-seed")
    Table.objects.filter(pk=finished.pk).update(state=json.loads(json.dumps(state)))
    with pytest.raises(CommandError):
        call_command("verify_game", str(finished.pk), stdout=io.StringIO())
    Table.objects.filter(pk=finished.pk).update(state=finished.state)  # for the suite's check


def test_verify_game_refuses_a_game_in_play(three_player_game):
    with pytest.raises(CommandError, match="not finished"):
        call_command("verify_game", str(three_player_game.pk), stdout=io.StringIO())


def test_verify_game_says_an_aborted_game_was_aborted(three_player_game, django_user_model):
    # Its seed is revealed on the table page and in the API, yet the command said "not
    # finished: its seed is still secret".
    moderator = make_moderator("mod", "game")
    table_abort(moderator=moderator, table_id=three_player_game.pk, reason="a test")
    with pytest.raises(CommandError, match="aborted") as refused:
        call_command("verify_game", str(three_player_game.pk), stdout=io.StringIO())
    assert "still secret" not in str(refused.value)


def time_out_until_expelled(table: Table) -> Table:
    """Let the turn clock run out on the person's turns until the strikes expel them."""
    for strike in range(1, table.options["strikes"] + 1):
        now = timezone.now() + LATER * strike
        table = wait_for_own_turn(table, now)
        now += timedelta(seconds=table.options["turn_seconds"] + 1)
        assert services.table_timeout_turn(table_id=table.pk, now=now)
    table.refresh_from_db()
    return table


def test_a_game_with_timeouts_replays_the_same_after_the_bots_change(bot_game, alice, monkeypatch):
    """The turn clock runs out on alice until she is expelled; the bots finish the game. Each
    timeout's move holds the actions its bot played, so the replay page, ``verify_game`` and
    the stored events stay the same when the bots' code changes afterwards."""
    table = time_out_until_expelled(bot_game)
    assert table.status == Table.Status.FINISHED
    timeouts = list(Move.objects.filter(table=table, action__type="timeout").order_by("seq"))
    assert len(timeouts) == table.options["strikes"]
    for move in timeouts:
        assert move.seat is None and move.action["level"] == "normal"
        plays = move.action["plays"]
        assert plays and plays[0]["type"] in ("draw", "mayi_meld")
        # The events are what they were: timed_out, then the plays' own, marked auto, then the
        # platform's strike (and expulsion).
        kinds = [e["type"] for e in move.events]
        assert kinds[0] == "timed_out" and kinds[-1] in ("strike", "expelled")
        auto = [e for e in move.events[1:] if e["type"] not in ("strike", "expelled")]
        assert auto and all(e.get("auto") for e in auto)

    change_the_bots(monkeypatch)
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    result = verify_game(table.state, [(m.seat, m.action) for m in moves], table.seed_sha256)
    assert result.ok, result.problem
    html = page(alice, f"/tables/{table.pk}/replay/").content.decode()
    assert "Verified:" in html
    # The platform's part of those moves is in their frames too: each strike, then the
    # expulsion (the page tells them in the table log's words).
    strikes = table.options["strikes"]
    game, _ = frames_of(alice, table.pk)
    told = [e for f in game["frames"] for e in f["events"]]
    assert [e["type"] for e in told if e["type"] == "timed_out"] == ["timed_out"] * strikes
    assert {"type": "strike", "seat": 0, "strikes": 1, "of": strikes}.items() <= next(
        e for e in told if e["type"] == "strike"
    ).items()
    assert any(e["type"] == "expelled" and e["seat"] == 0 for e in told)
    out = io.StringIO()
    call_command("verify_game", str(table.pk), stdout=out)
    assert "replay: OK" in out.getvalue()
    # Without the plays the same log no longer rebuilds the game: what the bots' change did
    # to every old game with a timeout.
    bare = [(m.seat, {k: v for k, v in m.action.items() if k != "plays"}) for m in moves]
    assert not verify_game(table.state, bare, table.seed_sha256).ok


def test_a_player_the_clock_expelled_sees_the_finished_games_replay(bot_game, alice, charlie):
    # Her statistics list the game and link its replay, which said "only its players see its
    # replay" to her: the expelled seat no longer counted as hers.
    Table.objects.filter(pk=bot_game.pk).update(public=False)
    bot_game.refresh_from_db()
    table = time_out_until_expelled(bot_game)
    assert (
        table.status == Table.Status.FINISHED and Seat.objects.get(table=table, user=alice).expelled
    )
    mine = page(alice, f"/tables/{table.pk}/replay/")
    assert mine.status_code == 200 and b"Replay" in mine.content
    refused = page(charlie, f"/tables/{table.pk}/replay/")
    assert refused.status_code == 403 and b"private" in refused.content


def test_old_timeouts_get_their_plays_and_replay_after_the_bots_change(
    bot_game, alice, monkeypatch
):
    """A game whose timeouts were recorded bare (as before plays were), then the bots change:
    it no longer replays, until ``manage.py record_timeout_plays`` gives each timeout the
    plays its events show."""
    table = time_out_until_expelled(bot_game)
    timeouts = Move.objects.filter(table=table, action__type="timeout")
    recorded = {m.pk: m.action for m in timeouts}
    for move in timeouts:
        Move.objects.filter(pk=move.pk).update(action={"type": "timeout", "level": "normal"})

    def replays() -> bool:
        moves = Move.objects.filter(table=table).order_by("seq").values_list("seat", "action")
        return verify_game(table.state, list(moves), table.seed_sha256).ok

    change_the_bots(monkeypatch)
    assert not replays(), "an old game with a timeout, after the bots changed"
    out = io.StringIO()
    call_command("record_timeout_plays", "--dry-run", stdout=out)
    assert "1 table(s)" in out.getvalue() and "3 timeout(s) would get their plays" in out.getvalue()
    assert not replays()
    out = io.StringIO()
    call_command("record_timeout_plays", stdout=out)
    assert "3 timeout(s) got their plays" in out.getvalue()
    assert replays()
    assert {m.pk: m.action for m in timeouts} == recorded, "the very plays the platform recorded"
    out = io.StringIO()
    call_command("record_timeout_plays", stdout=out)
    assert "0 table(s)" in out.getvalue()

    # A table whose log does not rebuild its state is left as it was, and named.
    move = timeouts.first()
    assert move is not None
    Move.objects.filter(pk=move.pk).update(action={"type": "timeout", "level": "normal"})
    Table.objects.filter(pk=table.pk).update(state={**table.state, "totals": [0, 0, 0]})
    with pytest.raises(CommandError):
        call_command("record_timeout_plays", stdout=(out := io.StringIO()))
    assert f"table {table.pk} left as it was" in out.getvalue()
    assert Move.objects.get(pk=move.pk).action == {"type": "timeout", "level": "normal"}
    Move.objects.filter(pk=move.pk).update(action=recorded[move.pk])
    Table.objects.filter(pk=table.pk).update(state=table.state)  # for the suite's check
