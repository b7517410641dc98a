"""Replays and deals anyone can verify (issue 12)."""

from __future__ import annotations

import hashlib
import io
import json
import re
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


def test_the_replay_rebuilds_the_stored_game_card_for_card(finished, carol):
    moves = list(Move.objects.filter(table=finished).order_by("seq"))
    result = verify_game(finished.state, [(m.seat, m.action) for m in moves], finished.seed_sha256)
    assert result.ok, result.problem
    assert [d["round"] for d in result.deals] == list(range(1, 8))

    # Anyone may watch a public finished game, even signed out; the end shows every hand.
    response = page(None, f"/tables/{finished.pk}/replay/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"move {len(moves)} of {len(moves)}" in html
    assert "Verified:" in html and 'id="server-commitment">matches' in html
    for hand in finished.state["hands"]:
        for card in hand:
            assert f'data-card="{card}"' in html
    assert html.count('<li value="') >= len(moves)
    assert "<script>" not in html and "style=" not in html
    assert 'src="/static/js/replay.js"' in html


def test_the_game_in_words_says_whose_meld_a_card_went_on(finished):
    # It said "lays 7M off on meld m4": an id no page shows. Now whose meld, of what kind, as
    # the table's log says it.
    html = page(None, f"/tables/{finished.pk}/replay/").content.decode()
    words = html.split('id="replay-log"')[1]
    assert " off on meld " not in words
    assert re.search(r"lays \w+ off on (their own|(alice|bob|Bot \d)'s) (run|book)", words)


def test_a_link_to_a_move_shows_the_game_as_it_stood(finished, alice):
    from games.engine.records import initial_state

    start = initial_state(finished.state)
    html = page(alice, f"/tables/{finished.pk}/replay/?move=0").content.decode()
    assert "move 0 of" in html and "Round 1 dealt." in html
    for card in start["hands"][0]:
        assert f'data-card="{card}"' in html
    first = Move.objects.get(table=finished, seq=1)
    html = page(alice, f"/tables/{finished.pk}/replay/?move=1").content.decode()
    assert "move 1 of" in html and 'data-prev="?move=0"' in html and 'data-next="?move=2"' in html
    assert 'data-next-round="?move=' in html  # round jumps for the keyboard
    assert 'id="m1" class="current"' in html
    assert first.action["type"] in ("draw", "may_i", "no_thanks", "mayi_meld")


def test_a_game_in_play_has_no_replay(three_player_game, alice):
    response = page(alice, f"/tables/{three_player_game.pk}/replay/")
    assert response.status_code == 403
    assert b"not finished" in response.content
    assert b'data-card="w' not in response.content  # no card of any hand
    assert page(alice, "/tables/999999/replay/").status_code == 404


def test_an_aborted_game_says_it_has_no_replay(three_player_game, alice, django_user_model):
    # An aborted game never ends: "its replay opens when it ends" promised a replay to come.
    moderator = django_user_model.objects.create_user("mod", "mod@example.com", "x")
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
    moderator = django_user_model.objects.create_user("mod", "mod@example.com", "x")
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
    assert "Verified:" in html and "clock runs out" in html
    # The platform's part of those moves is told too: each strike, then the expulsion.
    strikes = table.options["strikes"]
    assert f"alice gets a strike (1 of {strikes})" in html
    assert "alice is expelled: a bot plays the seat to the end" in html
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
