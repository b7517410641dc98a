"""The public layer of changes to a locked table (games/services/locked.py, transition.py):
what a service of another app (moderation, friends, tournaments) gets when it calls it."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import broadcast, engine, services
from games.api_schemas import TableCreateIn
from games.forms import TableForm
from games.models import Move, Table
from games.options import TABLE_DEFAULTS


@pytest.fixture
def announced(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(broadcast, "table_changed", lambda tid, v: seen.append((tid, v)))
    return seen


def test_an_action_returns_what_it_committed(three_player_game, alice, bob, carol):
    """The record of the commit, not an attribute on the model: the table at its new version,
    its seats, and the moves this commit wrote (each stamped with that version)."""
    table = three_player_game
    mover = {0: alice, 1: bob, 2: carol}[engine.active_seat(table.state)]
    committed = services.table_submit_action(
        table_id=table.pk,
        user=mover,
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    assert isinstance(committed, services.Committed)
    assert committed.table.version == table.version + 1
    assert [m.version for m in committed.moves] == [committed.table.version]
    assert [m.action for m in committed.moves] == [{"type": "draw", "source": "stock"}]
    assert {s.position for s in committed.seats} == {0, 1, 2}
    stored = Move.objects.filter(table=table).order_by("-seq").first()
    assert stored is not None and stored.seq == committed.moves[-1].seq
    assert not hasattr(committed.table, "committed_moves")


def test_ending_a_game_under_the_lock(
    three_player_game, announced, django_capture_on_commit_callbacks
):
    """do_end_game: the status, the clocks stopped, the reason kept, one new version, and the
    announcement only once the transaction commits."""
    table = three_player_game
    assert table.turn_deadline is not None
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        locked, _ = services.lock_table_with_seats(table.pk)
        version = services.do_end_game(
            locked,
            status=Table.Status.ABORTED,
            options={**locked.options, "aborted": {"reason": "test"}},
        )
        assert announced == []  # not before the commit
    table.refresh_from_db()
    assert version == table.version
    assert table.status == Table.Status.ABORTED
    assert table.options["aborted"] == {"reason": "test"}
    assert all(getattr(table, f) is None for f in services.CLOCK_FIELDS)
    assert announced == [(table.pk, version)]


def test_a_seat_that_changed_hands_gets_a_version_and_the_bots_play(
    three_player_game, announced, django_capture_on_commit_callbacks
):
    """do_seats_changed with the bots playing: the seat to act, now a bot's, plays at once;
    its moves are the commit's, and the sockets hear of the new version."""
    table = three_player_game
    active = engine.active_seat(table.state)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        locked, seats = services.lock_table_with_seats(table.pk)
        seat = next(s for s in seats if s.position == active)
        seat.expelled = True
        seat.save(update_fields=["expelled"])
        committed = services.do_seats_changed(locked, seats, bots_play=True)
    assert committed.moves and all(m.by_bot for m in committed.moves)
    assert committed.moves[0].seat == active
    table.refresh_from_db()
    assert announced == [(table.pk, table.version)] == [(table.pk, committed.table.version)]


def test_a_timeout_s_strike_is_recorded_with_its_move(bot_game):
    """The strike is part of the timeout's move as it is written (not appended afterwards):
    the stored move and the one returned carry it, after the engine's events."""
    table = bot_game
    table.refresh_from_db()
    assert services.table_timeout_turn(table_id=table.pk, now=table.turn_deadline)
    move = Move.objects.filter(table=table, action__type="timeout").get()
    kinds = [e["type"] for e in move.events]
    assert kinds[-1] == "strike"
    assert move.events[-1] == {
        "type": "strike",
        "seat": 0,
        "strikes": 1,
        "of": TABLE_DEFAULTS.strikes,
    }


def test_the_table_defaults_are_one_set():
    """The API's schema, the lobby's form and the service agree, read from one dataclass."""
    fields = TableCreateIn.model_fields
    form = TableForm()
    for name in ("turn_seconds", "window_seconds", "strikes"):
        value = getattr(TABLE_DEFAULTS, name)
        assert fields[name].default == value
        assert form.fields[name].initial == value
    assert services.table_create.__kwdefaults__["strikes"] == TABLE_DEFAULTS.strikes
