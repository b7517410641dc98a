"""The daily digest (notify/digest.py): at the player's local hour, the games waiting on them
with the time left, games ended since the last one (place, score, rating change), invitations;
nothing when there is nothing to say; text and HTML; one-click unsubscribe (RFC 8058) that works
signed out; once a day whatever runs it (the hourly beat, ``manage.py send_digests [--now]``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import Profile
from games import engine, services
from games.models import Seat, Table
from notify.digest import digests_send, unsubscribe_token
from notify.models import NotifyPrefs
from social.models import Invitation
from stats.models import GameResult

# 13:00 UTC on a December day is 08:00 in New York and 14:00 in Paris.
NOON = datetime(2026, 12, 3, 13, 0, tzinfo=UTC)


def in_zone(user: Any, zone: str, hour: int | None = None) -> None:
    profile = Profile.objects.for_user(user)
    profile.time_zone = zone
    profile.save(update_fields=["time_zone"])
    if hour is not None:
        prefs, _ = NotifyPrefs.objects.get_or_create(user=user)
        prefs.digest_hour = hour
        prefs.save(update_fields=["digest_hour"])


def waiting_user(table: Table) -> Any:
    seat = Seat.objects.get(table=table, position=engine.clock_seat(table.state))
    return seat.user


def finished_game(user: Any, *, place: int, total: int, mu: tuple[float, float] | None) -> Table:
    table = services.table_create(host=user, seats=3)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    GameResult.objects.create(
        table=table,
        seat=0,
        user=user,
        ruleset="bga",
        players=3,
        total=total,
        place=place,
        rated=mu is not None,
        mu_before=mu[0] if mu else None,
        sigma_before=8.0 if mu else None,
        mu_after=mu[1] if mu else None,
        sigma_after=7.5 if mu else None,
        finished=NOON - timedelta(hours=3),
    )
    return table


def test_the_digest_lists_waiting_games_ended_games_and_invitations(
    three_player_game, alice, bob, carol, charlie
):
    table = three_player_game
    me = waiting_user(table)
    in_zone(me, "America/New_York", 8)
    Table.objects.filter(pk=table.pk).update(turn_deadline=NOON + timedelta(hours=5, minutes=12))
    ended = finished_game(me, place=2, total=120, mu=(25.0, 25.3))
    open_table = services.table_create(host=charlie, seats=3)
    Invitation.objects.create(table=open_table, sender=charlie, recipient=me)
    counts = digests_send(now=NOON)
    assert counts["sent"] == 1
    [message] = mail.outbox
    assert message.to == [me.email]
    assert message.subject == "May I?: 1 game waits on you"
    text = message.body
    assert f"Table #{table.pk}: your turn, 5 h 12 min left." in text
    assert f"Table #{ended.pk}: you finished 2 of 3 with 120 points, rating +12." in text
    assert f"charlie invites you to table #{open_table.pk}." in text
    html, kind = message.alternatives[0]
    assert kind == "text/html"
    assert f'href="{django_settings.MAYI_SITE_URL}/tables/{table.pk}/"' in html
    assert "5 h 12 min left" in html and "rating +12" in html
    # One-click unsubscribe, RFC 8058: an https (here the site's) address and the POST header.
    link = re.fullmatch(r"<(.+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    assert link.startswith(django_settings.MAYI_SITE_URL + "/digest/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in text and link in html
    # Only the player's own: nobody else at the table got one (it is not their turn, and
    # nothing else happened to them).
    assert len(mail.outbox) == 1


def test_nothing_to_say_sends_nothing(alice):
    in_zone(alice, "UTC", 13)
    assert digests_send(now=NOON) == {"sent": 0, "empty": 1, "already": 0}
    assert mail.outbox == []


def test_sent_at_the_players_local_hour_only(three_player_game):
    me = waiting_user(three_player_game)
    in_zone(me, "America/New_York", 8)
    digests_send(now=NOON - timedelta(hours=1))  # 07:00 in New York
    assert mail.outbox == []
    digests_send(now=NOON)  # 08:00 in New York
    assert len(mail.outbox) == 1


def test_never_twice_a_day_whatever_runs_it(three_player_game):
    me = waiting_user(three_player_game)
    in_zone(me, "Europe/Paris", 14)
    assert digests_send(now=NOON)["sent"] == 1
    assert digests_send(now=NOON + timedelta(minutes=5))["already"] == 1
    assert digests_send(now=NOON, every=True)["sent"] == 0
    assert len(mail.outbox) == 1
    # The next local day, again.
    assert digests_send(now=NOON + timedelta(days=1))["sent"] == 1


def test_the_command_with_now_sends_whatever_the_hour(three_player_game):
    me = waiting_user(three_player_game)
    in_zone(me, "Asia/Tokyo", (timezone.now().hour + 7) % 24)  # Tokyo is UTC+9
    out = StringIO()
    call_command("send_digests", stdout=out)
    assert mail.outbox == []
    call_command("send_digests", "--now", stdout=out)
    assert [m.to for m in mail.outbox] == [[me.email]]
    call_command("send_digests", "--now", stdout=out)
    assert len(mail.outbox) == 1
    assert "already sent today" in out.getvalue()


def test_games_ended_go_in_the_next_digest_once(alice):
    in_zone(alice, "UTC", 13)
    finished_game(alice, place=1, total=30, mu=None)
    digests_send(now=NOON)
    assert "you finished 1 of 3 with 30 points." in mail.outbox[0].body
    # The next day: the game ended before the last digest, nothing new.
    assert digests_send(now=NOON + timedelta(days=1))["empty"] == 1


def test_default_on_with_an_email_off_without_or_when_turned_off(three_player_game):
    me = waiting_user(three_player_game)
    in_zone(me, "UTC", 13)
    me.email = ""
    me.save(update_fields=["email"])
    digests_send(now=NOON)
    assert mail.outbox == []
    me.email = "me@example.com"
    me.save(update_fields=["email"])
    client = Client()
    client.force_login(me)
    # The profile's form: the box unticked, the hour kept. The per-turn emails stay as they were.
    client.post("/accounts/profile/digest/", {"digest_hour": "13"})
    prefs = NotifyPrefs.objects.get(user=me)
    assert prefs.digest_on is False and prefs.digest_hour == 13
    assert Profile.objects.for_user(me).email_turn is True
    digests_send(now=NOON + timedelta(days=1))
    assert mail.outbox == []


def test_the_unsubscribe_link_works_signed_out(alice):
    link = f"/digest/unsubscribe/{unsubscribe_token(alice)}/"
    page = Client().get(link)
    assert page.status_code == 200 and b"Unsubscribe" in page.content
    assert NotifyPrefs.objects.filter(user=alice, digest_on=False).count() == 0  # GET: no change
    done = Client(enforce_csrf_checks=True).post(link)
    assert done.status_code == 200 and b"no more daily digest" in done.content
    assert NotifyPrefs.objects.get(user=alice).digest_on is False


def test_one_click_unsubscribe_as_a_mail_client_sends_it(alice):
    link = f"/digest/unsubscribe/{unsubscribe_token(alice)}/"
    answer = Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200
    assert NotifyPrefs.objects.get(user=alice).digest_on is False


@pytest.mark.parametrize("token", ["nonsense", "eyJ1IjoxfQ:bad:signature"])
def test_a_forged_token_changes_nothing(alice, token):
    answer = Client().post(f"/digest/unsubscribe/{token}/")
    assert answer.status_code == 400
    assert not NotifyPrefs.objects.filter(digest_on=False).exists()


def test_the_beat_runs_the_digests_hourly():
    entry = django_settings.CELERY_BEAT_SCHEDULE["send-digests"]
    assert entry["task"] == "notify.tasks.send_digests"
    assert entry["schedule"].minute == {0} and len(entry["schedule"].hour) == 24


def test_the_profile_offers_the_digest(alice):
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="digest"' in page and 'name="digest_hour"' in page
    assert 'id="id_digest_on" checked' in page  # on by default with an email address
