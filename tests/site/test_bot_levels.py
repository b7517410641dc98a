"""Issue 15, site side: a bot seat plays at the level the host chose, the table may choose the
level that plays timed-out turns, and the services ask the engine's bots at that level."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import engine, services
from games.engine.records import initial_state
from games.models import Move, Seat, Table

from .conftest import error_of

LATER = timedelta(days=365)


def table_with_bots(api_for, user, level=None, **options):  # type: ignore[no-untyped-def]
    client = api_for(user)
    made = client.post("/api/tables", {"seats": 3, **options})
    assert made.status_code == 201, made.content
    tid = made.json()["table"]["id"]
    body = None if level is None else {"level": level}
    filled = client.post(f"/api/tables/{tid}/bots", body)
    assert filled.status_code == 200, filled.content
    return tid, filled.json()["table"]


def test_bots_fill_at_the_chosen_level_normal_by_default(alice, bob, api_for):
    tid, meta = table_with_bots(api_for, alice, "strong")
    assert [(s["is_bot"], s["bot_level"]) for s in meta["seats"]] == [
        (False, None),
        (True, "strong"),
        (True, "strong"),
    ]
    assert {s.bot_level for s in Seat.objects.filter(table_id=tid, is_bot=True)} == {"strong"}
    _, meta = table_with_bots(api_for, bob)
    assert [s["bot_level"] for s in meta["seats"] if s["is_bot"]] == ["normal", "normal"]


def test_an_unknown_level_is_a_clear_400(alice, api_for):
    client = api_for(alice)
    tid = client.post("/api/tables", {"seats": 3}).json()["table"]["id"]
    status, _ = error_of(client.post(f"/api/tables/{tid}/bots", {"level": "godlike"}))
    assert status == 400
    assert not Seat.objects.filter(table_id=tid, is_bot=True).exists()
    status, code = error_of(client.post("/api/tables", {"seats": 3, "timeout_level": "x"}))
    assert status == 400


def test_the_services_ask_the_engine_at_each_seats_level(alice, api_for, monkeypatch):
    asked: list[str] = []
    real = engine.choose_action

    def spy(state, seat, level="normal"):  # type: ignore[no-untyped-def]
        asked.append(level)
        return real(state, seat, level)

    monkeypatch.setattr(engine, "choose_action", spy)
    tid, _ = table_with_bots(api_for, alice, "easy")
    services.table_start(user=alice, table_id=tid, seed="bot-levels-spy")
    for _ in range(12):  # alice plays (as the baseline bot would) until the bots have acted
        table = Table.objects.get(pk=tid)
        if asked:
            break
        seat = engine.seats_to_act(table.state)[0]
        assert seat == 0
        action = real(table.state, 0, "baseline")
        services.table_submit_action(
            table_id=tid, user=alice, action=action, expect_version=table.version
        )
    assert asked and set(asked) == {"easy"}


@pytest.mark.parametrize("level", [None, "strong"])
def test_a_timed_out_turn_is_played_at_the_tables_timeout_level(alice, level):
    extra = {} if level is None else {"timeout_level": level}
    table = services.table_create(host=alice, seats=3, **extra)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="bot-levels-timeout")
    table.refresh_from_db()
    assert services.table_timeout_turn(table_id=table.pk, now=timezone.now() + LATER)
    timeout = Move.objects.filter(table=table, seat=None, action__type="timeout").get()
    # The level is in the move, "normal" too, with the actions that level's bot played: a
    # replay applies those and asks no bot (a timeout without plays is an older move).
    plays = timeout.action.pop("plays")
    assert timeout.action == {"type": "timeout", "level": level or "normal"}
    state = initial_state(table.state)
    for move in Move.objects.filter(table=table, seq__lt=timeout.seq).order_by("seq"):
        state, _ = engine.apply(state, move.seat, move.action)
    bare = {"type": "timeout", "level": level or "normal"}
    assert engine.concrete_action(state, None, bare)["plays"] == plays
    assert Seat.objects.get(table=table, user=alice).missed_turns == 1


def test_expert_is_offered_wherever_levels_are_named_but_never_plays_a_timeout(alice, api_for):
    """Issue 33: the expert level fills seats (the API, "Play now", the forms), and a table may
    not make it the level of its timed-out turns (it searches: too slow for a clock)."""
    tid, meta = table_with_bots(api_for, alice, "expert")
    assert [s["bot_level"] for s in meta["seats"] if s["is_bot"]] == ["expert", "expert"]
    client = api_for(alice)
    status, code = error_of(client.post("/api/tables", {"seats": 3, "timeout_level": "expert"}))
    assert (status, code) == (400, "bad_request")
    made = client.post("/api/tables", {"seats": 3, "bot_level": "expert"})
    assert made.status_code == 201
    assert Table.objects.get(pk=made.json()["table"]["id"]).options["bot_level"] == "expert"
    with pytest.raises(services.BadOptions):
        services.table_create(host=alice, seats=3, timeout_level="expert")
    page = Client()
    page.force_login(alice)
    home = page.get("/").content.decode()
    # The "Play now" and the new table's forms each offer it.
    assert home.count('value="expert"') >= 2
