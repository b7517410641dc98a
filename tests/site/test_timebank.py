"""Time banks, vacation and the deadline sweep (unit level: services called with ``now``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import engine, services
from games.engine.bots import choose_action
from games.models import Move, Seat, Table
from games.services import enqueue, timers
from games.services.clocks import ClockOptions, bank_after_turn

from .conftest import SEED, error_of


def bank_table(alice: Any, **options: Any) -> Table:
    """alice and two bots; alice (seat 0) is first to draw with this seed."""
    table = services.table_create(host=alice, seats=3, **options)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    assert engine.seats_to_act(table.state) == [0] and table.state["phase"] == "draw"
    return table


def play_own_turn(table: Table, user: Any) -> Table:
    """alice plays her bot's choices until her turn is over (the bots may then play up to her
    next one: a new clock, so a new turn_seq)."""
    table.refresh_from_db()
    turn = table.turn_seq
    for _ in range(20):
        table.refresh_from_db()
        if (
            table.turn_seq != turn
            or table.state["active"] != 0
            or table.state["phase"] not in ("draw", "play")
        ):
            return table
        services.table_submit_action(
            table_id=table.pk,
            user=user,
            action=choose_action(table.state, 0),
            expect_version=table.version,
        )
    raise AssertionError("alice's turn never ended")


def wait_for_own_turn(table: Table) -> Table:
    """Windows close by their timer until alice (seat 0) is to draw."""
    for _ in range(50):
        table.refresh_from_db()
        if table.state["active"] == 0 and table.state["phase"] == "draw":
            return table
        assert services.table_close_buy_window(
            table_id=table.pk, now=timezone.now() + timedelta(days=1)
        )
    raise AssertionError("alice's turn never came")


def test_bank_arithmetic():
    clock = ClockOptions(start=300, add=60, cap=400)
    assert bank_after_turn(300, 100, clock) == 260
    assert bank_after_turn(300, 10_000, clock) == 60  # ran out: only the time per move
    assert bank_after_turn(390, 0, clock) == 400  # capped
    assert bank_after_turn(300, -5, clock) == 360  # a clock paused into the future used none
    assert ClockOptions.of({"turn_seconds": 90}) == ClockOptions(start=90, add=90, cap=90)


def test_a_turn_is_charged_to_the_bank(alice):
    table = bank_table(alice, turn_seconds=60, bank_seconds=300, bank_max_seconds=400)
    assert abs((table.turn_deadline - table.turn_started).total_seconds() - 300) < 1
    # alice thinks for 100 seconds.
    Table.objects.filter(pk=table.pk).update(
        turn_started=table.turn_started - timedelta(seconds=100)
    )
    table = play_own_turn(table, alice)
    seat = Seat.objects.get(table=table, user=alice)
    assert 259 <= seat.clock_bank <= 261
    # Her next turn gets what is in her bank.
    wait_for_own_turn(table)
    table.refresh_from_db()
    assert table.turn_seq >= 2
    assert abs((table.turn_deadline - table.turn_started).total_seconds() - seat.clock_bank) < 1


def test_a_timeout_leaves_only_the_time_per_move(alice):
    table = bank_table(alice, turn_seconds=60, bank_seconds=300)
    later = table.turn_deadline + timedelta(seconds=1)
    assert services.table_timeout_turn(table_id=table.pk, now=later)
    assert Seat.objects.get(table=table, user=alice).clock_bank == 60


def test_clock_options_are_validated(alice, api_for):
    client = api_for(alice)
    bad = [
        {"turn_seconds": 10},  # under 30 s
        {"bank_seconds": 5},
        {"turn_seconds": 600, "bank_max_seconds": 300},  # cap under the time per move
        {"bank_seconds": 900, "bank_max_seconds": 600},
        {"bank_seconds": "lots"},
    ]
    for options in bad:
        assert error_of(client.post("/api/tables", options))[0] == 400, options
    body = client.post(
        "/api/tables",
        {"turn_seconds": 3600, "bank_seconds": 3 * 86400, "bank_max_seconds": 5 * 86400},
    ).json()
    meta = body["table"]
    assert (meta["turn_seconds"], meta["bank_seconds"], meta["bank_max_seconds"]) == (
        3600,
        3 * 86400,
        5 * 86400,
    )
    assert meta["clocks"]["bank_seconds"] == 3 * 86400


def test_clocks_in_the_table_meta(alice, api_for):
    table = bank_table(alice, turn_seconds=120, bank_seconds=600)
    meta = api_for(alice).get(f"/api/tables/{table.pk}").json()["table"]
    clocks = meta["clocks"]
    assert (clocks["bank_seconds"], clocks["add_seconds"], clocks["max_seconds"]) == (600, 120, 600)
    mine = clocks["seats"][0]
    assert mine["running"] and 595 <= mine["seconds_left"] <= 600
    assert not clocks["seats"][1]["running"] and clocks["seats"][1]["seconds_left"] == 600
    assert meta["turn_deadline"] is not None and clocks["turn_started"] is not None


# -- vacation -------------------------------------------------------------------------------
def test_vacation_pauses_a_running_clock_and_coming_back_resumes_it(alice, api_for, settings):
    settings.MAYI_VACATION_DAYS_PER_YEAR = 10
    table = bank_table(alice, turn_seconds=3600)
    deadline, version = table.turn_deadline, table.version
    client = api_for(alice)
    body = client.post("/api/vacation", {"days": 3}).json()
    assert body["days_left"] == 7 and body["vacation_until"]
    table.refresh_from_db()
    assert table.version == version + 1  # the page redraws its clock
    moved = (table.turn_deadline - deadline).total_seconds()
    assert 3 * 86400 - 5 < moved <= 3 * 86400
    meta = client.get(f"/api/tables/{table.pk}").json()["table"]
    assert meta["clocks"]["seats"][0]["vacation_until"] is not None
    assert 3595 <= meta["clocks"]["seats"][0]["seconds_left"] <= 3600
    # The old deadline fires nothing now.
    assert not services.table_timeout_turn(table_id=table.pk, now=deadline + timedelta(seconds=1))
    assert error_of(client.post("/api/vacation", {"days": 8})) == (400, "no_days_left")
    back = client.post("/api/vacation/end").json()
    # The day begun is spent; the two not begun come back.
    assert back["vacation_until"] is None and back["days_left"] == 9
    table.refresh_from_db()
    assert abs((table.turn_deadline - deadline).total_seconds()) < 5


def test_a_turn_that_starts_on_vacation_starts_when_it_ends(alice):
    table = bank_table(alice, turn_seconds=600)
    services.vacation_start(user=alice, days=2)
    alice.refresh_from_db()
    until = alice.profile.vacation_until
    # She may still play while away; her next turn, after the bots', starts when she is back.
    table = play_own_turn(table, alice)
    table = wait_for_own_turn(table)
    assert table.turn_started == until
    assert table.turn_deadline == until + timedelta(seconds=600)
    assert table.remind_at is not None and table.remind_at >= until


def test_vacation_days_are_whole_and_counted_per_year(alice):
    with pytest.raises(services.BadOptions):
        services.vacation_start(user=alice, days=0)
    profile = services.vacation_start(user=alice, days=1)
    profile = services.vacation_start(user=alice, days=2)  # extends the one running
    now = timezone.now()
    assert (profile.vacation_until - now).total_seconds() > 2.9 * 86400
    assert services.vacation_days_left(profile, now) == 20 - 3
    next_year = now.replace(year=now.year + 1)
    assert services.vacation_days_left(profile, next_year) == 20


# -- the sweep --------------------------------------------------------------------------------
def test_the_sweep_fires_each_overdue_deadline_once(alice, monkeypatch):
    table = bank_table(alice, turn_seconds=60)
    queued: list[tuple] = []
    monkeypatch.setattr(enqueue, "queue_deadlines", lambda *a, **k: queued.append(a) or 1)
    later = table.turn_deadline + timedelta(seconds=1)
    assert timers.fire_overdue(now=later) >= 1
    again = Move.objects.filter(table=table, action__type="timeout").count()
    assert again == 1
    assert timers.fire_overdue(now=later) == 0
    assert Move.objects.filter(table=table, action__type="timeout").count() == 1


def test_the_sweep_queues_a_far_deadline_once_when_it_comes_near(alice, monkeypatch):
    table = bank_table(alice, turn_seconds=3600)
    assert table.timers_queued is None  # an hour away: no ETA task at the commit
    queued: list[tuple] = []
    monkeypatch.setattr(enqueue, "queue_deadlines", lambda *a, **k: queued.append(a) or 1)
    assert timers.queue_near(now=timezone.now()) == 0
    near = table.turn_deadline - timedelta(seconds=60)
    assert timers.queue_near(now=near) == 1
    assert timers.queue_near(now=near) == 0  # claimed: a second sweep queues nothing
    assert queued == [(table.pk, table.version, None, table.turn_deadline)]
    table.refresh_from_db()
    assert table.timers_queued == table.version


def test_a_near_deadline_is_queued_on_commit(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.MAYI_MIN_CLOCK_SECONDS = 1
    sent: list[tuple] = []
    monkeypatch.setattr(
        enqueue, "send_task", lambda name, args, **kw: sent.append((name, args, kw["eta"]))
    )
    with django_capture_on_commit_callbacks(execute=True):
        table = bank_table(alice, turn_seconds=5)
    assert sent == [("games.tasks.timeout_turn", (table.pk, table.version), table.turn_deadline)]


def test_a_late_or_early_timer_is_harmless(alice):
    table = bank_table(alice, turn_seconds=60)
    version = table.version
    assert not services.table_timeout_turn(table_id=table.pk, expect_version=version)  # early
    later = table.turn_deadline + timedelta(seconds=5)
    assert not services.table_timeout_turn(
        table_id=table.pk, expect_version=version - 1, now=later
    )  # another version's
    assert services.table_timeout_turn(table_id=table.pk, expect_version=version, now=later)
    assert not services.table_timeout_turn(table_id=table.pk, expect_version=version, now=later)


def test_an_early_task_queues_itself_again_for_the_deadline(alice, monkeypatch):
    table = bank_table(alice, turn_seconds=60)
    queued: list[tuple] = []
    monkeypatch.setattr(enqueue, "queue_deadlines", lambda *a, **k: queued.append(a) or 1)
    assert timers.requeue_if_early(table_id=table.pk, version=table.version, field="turn_deadline")
    assert queued == [(table.pk, table.version, None, table.turn_deadline)]
    # A stale version, or a deadline already past, is nothing to queue.
    assert not timers.requeue_if_early(
        table_id=table.pk, version=table.version - 1, field="turn_deadline"
    )
    assert not timers.requeue_if_early(
        table_id=table.pk,
        version=table.version,
        field="turn_deadline",
        now=table.turn_deadline + timedelta(seconds=1),
    )
    assert len(queued) == 1


def test_a_sale_first_draw_pauses_the_clock_without_a_second_time_per_move(alice, bob, carol):
    table = services.table_create(
        host=alice, seats=3, ruleset="petras", turn_seconds=60, bank_seconds=300
    )
    assert table.options["bank_max_seconds"] == 300
    Table.objects.filter(pk=table.pk).update(options={**table.options, "bank_max_seconds": 1000})
    for user in (bob, carol):
        services.table_join(user=user, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    users = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    active = table.state["active"]
    services.table_submit_action(
        table_id=table.pk,
        user=users[active],
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    table.refresh_from_db()
    assert table.state["phase"] == "selling"
    # The clock stops while the discard is on sale: time used is charged, nothing added.
    assert table.turn_deadline is None and table.window_deadline is not None
    seat = Seat.objects.get(table=table, position=active)
    assert 299 <= seat.clock_bank <= 300
    later = table.window_deadline + timedelta(seconds=1)
    assert services.table_close_buy_window(table_id=table.pk, now=later)
    table.refresh_from_db()
    assert table.state["phase"] == "play" and table.state["active"] == active
    assert abs((table.turn_deadline - later).total_seconds() - seat.clock_bank) < 1
    # The turn's real end adds the time per move, once.
    card = table.state["hands"][active][0]
    services.table_submit_action(
        table_id=table.pk,
        user=users[active],
        action={"type": "discard", "card": card},
        expect_version=table.version,
    )
    seat.refresh_from_db()
    assert 359 <= seat.clock_bank <= 360
