"""The pages of the clocks: time bank in the lobby form, reminders and vacation on the
profile, the standing order on the table page."""

from __future__ import annotations

from datetime import time

from accounts.models import Profile
from games.models import Seat, Table
from tests.conftest import signed_in_client


def test_the_lobby_form_sets_a_time_bank(alice):
    client = signed_in_client(alice)
    page = client.get("/").content.decode()
    assert 'name="bank_seconds"' in page and 'name="bank_max_seconds"' in page
    response = client.post(
        "/tables/new/",
        {
            "ruleset": "bga",
            "seats": 3,
            "turn_seconds": 3600,
            "bank_seconds": 3 * 86400,
            "bank_max_seconds": 7 * 86400,
            "window_seconds": 120,
            "strikes": 3,
        },
    )
    assert response.status_code == 302
    options = Table.objects.get().options
    assert (options["turn_seconds"], options["bank_seconds"], options["bank_max_seconds"]) == (
        3600,
        3 * 86400,
        7 * 86400,
    )
    # Left empty: every turn gets the turn clock.
    client.post(
        "/tables/new/",
        {"ruleset": "bga", "seats": 3, "turn_seconds": 60, "window_seconds": 30, "strikes": 3},
    )
    options = Table.objects.order_by("-pk").first().options
    assert options["bank_seconds"] == options["bank_max_seconds"] == 60


def test_reminder_settings_and_vacation_on_the_profile(alice):
    client = signed_in_client(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="reminders"' in page and 'id="vacation"' in page
    client.post(
        "/accounts/profile/reminders/",
        {
            "email_turn": "on",
            "quiet_start": "22:00",
            "quiet_end": "07:00",
            "time_zone": "Europe/Paris",
        },
    )
    profile = Profile.objects.get(user=alice)
    assert profile.email_turn and not profile.email_clock
    assert (profile.quiet_start, profile.quiet_end) == (time(22), time(7))
    client.post("/accounts/profile/reminders/", {"time_zone": "Mars/Olympus"})
    assert Profile.objects.get(user=alice).time_zone == "Europe/Paris"

    client.post("/accounts/profile/vacation/", {"days": 2})
    profile.refresh_from_db()
    assert profile.vacation_until is not None and profile.vacation_days_used == 2
    assert 'id="vacation-until"' in client.get("/accounts/profile/").content.decode()
    client.post("/accounts/profile/vacation/end/")
    profile.refresh_from_db()
    assert profile.vacation_until is None and profile.vacation_days_used == 1


def test_the_standing_order_control_on_the_table_page(three_player_game, alice, charlie):
    table = three_player_game
    client = signed_in_client(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="buy-order"' in page
    response = client.post(f"/tables/{table.pk}/orders/", {"order": "completes", "limit": "2"})
    assert response.status_code == 302
    seat = Seat.objects.get(table=table, user=alice)
    assert (seat.buy_order, seat.buy_order_limit) == ("completes", 2)
    client.post(f"/tables/{table.pk}/orders/", {"order": "bogus"})
    assert Seat.objects.get(table=table, user=alice).buy_order == "completes"
    signed_in_client(charlie).post(f"/tables/{table.pk}/orders/", {"order": "never"})
    assert not Seat.objects.filter(table=table, user=charlie).exists()
