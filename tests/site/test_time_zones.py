"""Every time the site shows in the viewer's time zone (mayi_site/timezones.py): the profile's
zone is a choice from the IANA list, offered from the browser's at sign-up; a middleware
activates it per request; pages name it; the API keeps ISO 8601 in UTC."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.test import Client
from django.utils import timezone
from django.utils.formats import date_format

from accounts.mail import drain
from accounts.models import Profile
from games import services
from games.models import Table
from mayi_site.timezones import zone_names
from moderation.models import Restriction
from moderation.services import user_mute
from tests.conftest import make_moderator, signed_in_client, verified_client


def set_zone(client: Client, zone: str) -> Any:
    return client.post(
        "/accounts/profile/reminders/",
        {"email_turn": "on", "email_clock": "on", "time_zone": zone},
    )


def test_the_zones_are_the_iana_list():
    names = zone_names()
    assert "Europe/Paris" in names and "America/Argentina/Buenos_Aires" in names
    assert "UTC" in names and "Mars/Olympus" not in names
    assert list(names) == sorted(names)


def test_the_profile_offers_a_choice_and_refuses_an_unknown_zone(alice):
    client = signed_in_client(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert '<select name="time_zone"' in page and '<option value="Asia/Tokyo">' in page
    set_zone(client, "Mars/Olympus")
    assert Profile.objects.for_user(alice).time_zone == "UTC"
    set_zone(client, "Asia/Tokyo")
    assert Profile.objects.for_user(alice).time_zone == "Asia/Tokyo"


def test_sign_up_takes_the_zone_offered_from_the_browser(db):
    client = Client()
    page = client.get("/accounts/signup/").content.decode()
    assert "data-browser-zone" in page and "js/timezone.js" in page
    client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "",
            "password1": "a long enough password 42",
            "password2": "a long enough password 42",
            "time_zone": "America/Chicago",
        },
    )
    assert Profile.objects.get(user__username="dora").time_zone == "America/Chicago"


def test_pages_show_times_in_my_zone_and_name_it(alice):
    client = signed_in_client(alice)
    set_zone(client, "Asia/Tokyo")
    services.vacation_start(user=alice, days=1)
    until = Profile.objects.for_user(alice).vacation_until
    local = timezone.localtime(until, timezone=ZoneInfo("Asia/Tokyo"))
    page = client.get("/accounts/profile/").content.decode()
    assert f"{local:%Y-%m-%d %H:%M} Asia/Tokyo" in page
    assert 'data-time-zone="Asia/Tokyo"' in page


def test_a_new_zone_shows_at_once(alice):
    client = signed_in_client(alice)
    set_zone(client, "Asia/Tokyo")
    assert 'data-time-zone="Asia/Tokyo"' in client.get("/").content.decode()
    set_zone(client, "Europe/Paris")
    assert 'data-time-zone="Europe/Paris"' in client.get("/").content.decode()


def test_the_api_keeps_utc(alice, api_for):
    client = signed_in_client(alice)
    set_zone(client, "Asia/Tokyo")
    services.vacation_start(user=alice, days=1)
    body = client.get("/api/vacation").json()
    assert body["vacation_until"].endswith("+00:00")
    table = services.table_create(host=alice, seats=3)
    meta = client.get(f"/api/tables/{table.pk}").json()["table"]
    created = [v for k, v in meta.items() if isinstance(v, str) and v[:4].isdigit() and "T" in v]
    assert all(v.endswith(("+00:00", "Z")) for v in created)


def test_another_viewers_zone_is_their_own(alice, bob):
    a, b = signed_in_client(alice), signed_in_client(bob)
    set_zone(a, "Asia/Tokyo")
    assert 'data-time-zone="UTC"' in b.get("/").content.decode()


def test_the_chat_mute_notice_names_the_zone(alice, admin_user):
    client = signed_in_client(alice)
    set_zone(client, "Asia/Tokyo")
    until = timezone.now() + timedelta(hours=2)
    Restriction.objects.create(
        user=alice, kind=Restriction.Kind.MUTE, until=until, reason="test", created_by=admin_user
    )
    table = services.table_create(host=alice, seats=3)
    answer = client.post(
        f"/api/tables/{table.pk}/chat", {"text": "hi"}, content_type="application/json"
    )
    assert answer.status_code == 403
    assert "Asia/Tokyo" in answer.json()["error"]["message"]


def test_the_admin_shows_times_in_the_staff_members_zone(alice, admin_user):
    profile = Profile.objects.for_user(admin_user)
    profile.time_zone = "Asia/Tokyo"
    profile.save(update_fields=["time_zone"])
    client = verified_client(admin_user)  # signs in: the zone is read then
    table = services.table_create(host=alice, seats=3)
    created = timezone.now().replace(hour=20, minute=15, second=0, microsecond=0)
    Table.objects.filter(pk=table.pk).update(created=created)
    page = client.get("/admin/games/table/").content.decode()
    tokyo = timezone.localtime(created, ZoneInfo("Asia/Tokyo"))
    utc = timezone.localtime(created, ZoneInfo("UTC"))
    assert date_format(tokyo, "DATETIME_FORMAT") in page
    assert date_format(utc, "DATETIME_FORMAT") not in page


def test_a_mute_email_is_in_the_members_zone(bob, mailoutbox, django_capture_on_commit_callbacks):
    profile = Profile.objects.for_user(bob)
    profile.time_zone = "Europe/Paris"
    profile.save(update_fields=["time_zone"])
    moderator = make_moderator("mod", "game")
    with django_capture_on_commit_callbacks(execute=True):
        mute = user_mute(moderator=moderator, user=bob, duration=timedelta(days=3), reason="rude")
    drain()
    paris = timezone.localtime(mute.until, ZoneInfo("Europe/Paris"))
    body = mailoutbox[-1].body
    assert mailoutbox[-1].to == [bob.email]
    assert f"until {paris:%d %b %Y, %H:%M} Europe/Paris." in body
    assert "UTC" not in body


def test_my_restrictions_on_my_profile_are_in_my_zone(bob, admin_user):
    client = signed_in_client(bob)
    set_zone(client, "Asia/Tokyo")
    until = timezone.now().replace(hour=20, minute=15, second=0, microsecond=0) + timedelta(days=2)
    Restriction.objects.create(
        user=bob, kind=Restriction.Kind.MUTE, until=until, reason="test", created_by=admin_user
    )
    page = client.get("/accounts/profile/").content.decode()
    section = page.split('id="my-restrictions"')[1].split("</section>")[0]
    tokyo = timezone.localtime(until, ZoneInfo("Asia/Tokyo"))
    assert f"until {tokyo:%d %b %Y, %H:%M} Asia/Tokyo" in section
    assert "UTC" not in section
