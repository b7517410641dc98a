"""Clocks that sleep (games/services/sleep.py): a player's nightly sleep hours do not count on
their turn clock; the deadline moves past the night and the bank is charged only the time that
counts; the seat says "asleep until"; the "May I?" window is not paused. Across a night and
across changes of daylight saving time (zoneinfo)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from accounts.models import Profile
from games import engine, services
from games.models import Seat, Table
from games.services import clocks
from games.services.errors import BadOptions
from games.services.sleep import Sleep, asleep_until, counted_seconds, deadline_after

PARIS = ZoneInfo("Europe/Paris")
NIGHT = Sleep(time(23), time(7), PARIS)


def paris(*args: int) -> datetime:
    return datetime(*args, tzinfo=PARIS)


def test_a_night_does_not_count():
    start = paris(2026, 12, 3, 21, 0)
    deadline = deadline_after(start, 3 * 3600, NIGHT)
    assert deadline == paris(2026, 12, 4, 8, 0)  # 2 h before bed, 1 h after 07:00
    assert counted_seconds(start, deadline, NIGHT) == 3 * 3600
    assert counted_seconds(paris(2026, 12, 3, 23, 30), paris(2026, 12, 4, 6, 0), NIGHT) == 0


def test_a_turn_that_starts_in_the_night_starts_counting_at_waking():
    start = paris(2026, 12, 4, 2, 0)
    assert deadline_after(start, 3600, NIGHT) == paris(2026, 12, 4, 8, 0)


def test_several_nights_in_a_long_clock():
    start = paris(2026, 12, 3, 12, 0)
    # 3 days of counted time: 16 h awake a day.
    deadline = deadline_after(start, 3 * 24 * 3600, NIGHT)
    assert counted_seconds(start, deadline, NIGHT) == 3 * 24 * 3600
    # 11 h on the first day, 16 h on each of the next three, 13 h on the fifth from 07:00.
    assert deadline == paris(2026, 12, 7, 20, 0)


def test_the_night_daylight_saving_time_ends_is_an_hour_longer():
    # Europe/Paris, 25 October 2026: 03:00 CEST becomes 02:00 CET. 23:00 to 07:00 is 9 h.
    start = paris(2026, 10, 24, 22, 0)
    deadline = deadline_after(start, 2 * 3600, NIGHT)
    assert deadline == paris(2026, 10, 25, 8, 0)
    assert (deadline - start).total_seconds() == 11 * 3600  # 1 h + 9 h asleep + 1 h
    assert counted_seconds(start, deadline, NIGHT) == 2 * 3600


def test_the_night_daylight_saving_time_starts_is_an_hour_shorter():
    # Europe/Paris, 29 March 2026: 02:00 CET becomes 03:00 CEST. 23:00 to 07:00 is 7 h.
    start = paris(2026, 3, 28, 22, 0)
    deadline = deadline_after(start, 2 * 3600, NIGHT)
    assert deadline == paris(2026, 3, 29, 8, 0)
    assert (deadline - start).total_seconds() == 9 * 3600
    assert counted_seconds(start, deadline, NIGHT) == 2 * 3600


def test_asleep_until():
    assert asleep_until(NIGHT, paris(2026, 12, 4, 1, 0)) == paris(2026, 12, 4, 7, 0)
    assert asleep_until(NIGHT, paris(2026, 12, 4, 12, 0)) is None


def sleeps(user: Any, start: time | None, end: time | None, zone: str = "Europe/Paris") -> None:
    profile = Profile.objects.for_user(user)
    profile.time_zone = zone
    profile.save(update_fields=["time_zone"])
    services.sleep_hours_set(user=user, start=start, end=end)


def started_at(alice: Any, bob: Any, carol: Any, when: datetime, hours: int = 3) -> Table:
    table = services.table_create(host=alice, seats=3, turn_seconds=hours * 3600)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    for user in (alice, bob, carol):
        sleeps(user, time(23), time(7))
    with_now(table.pk, alice, when)
    table.refresh_from_db()
    return table


def with_now(table_id: int, alice: Any, when: datetime) -> None:
    import games.services.tables as tables_module

    real = tables_module.timezone.now
    tables_module.timezone.now = lambda: when  # type: ignore[assignment]
    try:
        services.table_start(user=alice, table_id=table_id, seed="sleep")
    finally:
        tables_module.timezone.now = real  # type: ignore[assignment]


@pytest.fixture
def evening_game(alice, bob, carol, monkeypatch) -> Table:
    return started_at(alice, bob, carol, paris(2026, 12, 3, 21, 0))


def test_the_turn_deadline_moves_past_the_players_night(evening_game):
    table = evening_game
    assert table.turn_deadline == paris(2026, 12, 4, 8, 0)  # 3 h clock, started at 21:00


def test_the_bank_is_charged_only_the_time_that_counts(evening_game):
    table = evening_game
    active = engine.clock_seat(table.state)
    seat = Seat.objects.select_related("user").get(table=table, position=active)
    # The player draws and discards the next morning at 07:30: 2 h 30 min counted.
    at = paris(2026, 12, 4, 7, 30)
    for _ in range(2):
        table.refresh_from_db()
        action = engine.legal_actions(table.state, active)
        move = next(
            (a for a in action if a["type"] == "draw" and a.get("source") == "stock"),
            next((a for a in action if a["type"] == "discard"), None),
        )
        assert move is not None
        import games.services.play as play_module

        real = play_module.timezone.now
        play_module.timezone.now = lambda: at  # type: ignore[assignment]
        try:
            services.table_submit_action(
                table_id=table.pk, user=seat.user, action=move, expect_version=table.version
            )
        finally:
            play_module.timezone.now = real  # type: ignore[assignment]
    seat.refresh_from_db()
    # 3 h bank - 2.5 h used + 3 h per move, capped at 3 h.
    used = counted_seconds(paris(2026, 12, 3, 21, 0), at, NIGHT)
    assert used == 2.5 * 3600
    clock = clocks.ClockOptions.of(table.options)
    assert seat.clock_bank == clocks.bank_after_turn(clock.start, used, clock)


def test_the_sweep_does_not_time_out_a_sleeping_player(evening_game):
    table = evening_game
    # 00:30: a wall-clock 3 h after the start, but only 2 h counted.
    fired = services.table_timeout_turn(table_id=table.pk, now=paris(2026, 12, 4, 0, 30))
    assert fired is False
    table.refresh_from_db()
    assert table.turn_deadline == paris(2026, 12, 4, 8, 0)
    assert services.table_timeout_turn(table_id=table.pk, now=paris(2026, 12, 4, 8, 1)) is True


def test_a_deadline_set_before_new_sleep_hours_is_checked_by_the_sweep(evening_game):
    table = evening_game
    # A deadline column gone stale (written as if there were no night): the timeout service
    # counts as the clock does and moves it instead of letting a bot play.
    Table.objects.filter(pk=table.pk).update(turn_deadline=paris(2026, 12, 4, 0, 0))
    assert services.table_timeout_turn(table_id=table.pk, now=paris(2026, 12, 4, 0, 1)) is False
    table.refresh_from_db()
    assert table.turn_deadline == paris(2026, 12, 4, 8, 0)


def test_new_sleep_hours_move_my_running_clock(evening_game):
    table = evening_game
    active = engine.clock_seat(table.state)
    user = Seat.objects.get(table=table, position=active).user
    services.sleep_hours_set(user=user, start=None, end=None)
    table.refresh_from_db()
    assert table.turn_deadline == paris(2026, 12, 4, 0, 0)


def test_the_seat_says_asleep_until(evening_game, monkeypatch):
    table = evening_game
    table, seats = services.table_read(table_id=table.pk)
    meta = clocks.clock_meta(table, seats, paris(2026, 12, 4, 1, 0))
    assert {s["asleep_until"] for s in meta["seats"]} == {
        paris(2026, 12, 4, 7, 0).astimezone(UTC).isoformat()
    }
    meta = clocks.clock_meta(table, seats, paris(2026, 12, 4, 9, 0))
    assert {s["asleep_until"] for s in meta["seats"]} == {None}
    # And the running clock's time left does not count the night.
    running = next(
        s
        for s in clocks.clock_meta(table, seats, paris(2026, 12, 3, 22, 0))["seats"]
        if s["running"]
    )
    assert running["seconds_left"] == 2 * 3600


def test_the_may_i_window_is_not_paused(alice, bob, carol, monkeypatch):
    night = paris(2026, 12, 4, 1, 0)  # everyone at the table asleep
    table = started_at(alice, bob, carol, night)
    monkeypatch.setattr("django.utils.timezone.now", lambda: night)
    active = engine.clock_seat(table.state)
    user = Seat.objects.get(table=table, position=active).user
    services.table_submit_action(
        table_id=table.pk,
        user=user,
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    table.refresh_from_db()
    services.table_submit_action(
        table_id=table.pk,
        user=user,
        action={"type": "discard", "card": table.state["hands"][active][0]},
        expect_version=table.version,
    )
    table.refresh_from_db()
    assert engine.window_open(table.state)
    # The window's timer runs from now, in the middle of the night, for its usual length.
    assert table.window_deadline == night + timedelta(seconds=int(table.options["window_seconds"]))


@pytest.mark.parametrize(
    "start,end",
    [(time(22), time(9)), (time(1), time(12)), (time(8), time(8))],
)
def test_sleep_hours_last_at_most_ten_hours(alice, start, end):
    with pytest.raises(BadOptions):
        services.sleep_hours_set(user=alice, start=start, end=end)


def test_the_profile_sets_sleep_hours(alice):
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="sleep"' in page and 'name="sleep_start"' in page
    client.post("/accounts/profile/sleep/", {"sleep_start": "23:30", "sleep_end": "07:00"})
    profile = Profile.objects.get(user=alice)
    assert (profile.sleep_start, profile.sleep_end) == (time(23, 30), time(7))
    answer = client.post(
        "/accounts/profile/sleep/", {"sleep_start": "20:00", "sleep_end": "08:00"}, follow=True
    )
    assert "at most 10 hours" in answer.content.decode()
