"""Nudges (notify/nudges.py): ``POST /api/tables/<id>/nudge`` → 200 ``{"nudged": seat}``, 400
``nudge_too_early``, 429 ``nudge_limit`` with Retry-After, 403 ``not_seated``; the nudged
player alone gets a push, or without a subscription an email; a blocked nudger's never
arrive."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core import mail
from django.utils import timezone

from games import engine
from games import services as games_services
from games.models import Seat, Table
from notify.models import Nudge
from social.services import block_add
from tests.conftest import signed_in_client

from .conftest import error_of


def seated(table: Table) -> dict[int, Any]:
    return {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}


def held_for(table: Table, seconds: float) -> None:
    """The turn started ``seconds`` ago."""
    Table.objects.filter(pk=table.pk).update(
        turn_started=timezone.now() - timedelta(seconds=seconds)
    )


def waiting_and_other(table: Table) -> tuple[int, Any, Any]:
    users = seated(table)
    active = engine.clock_seat(table.state)
    other = users[(active + 1) % 3]
    return active, users[active], other


def nudge(user: Any, table: Table) -> Any:
    return signed_in_client(user).post(
        f"/api/tables/{table.pk}/nudge", content_type="application/json"
    )


def test_a_nudge_after_an_hour_names_the_seat(three_player_game, run_notify):
    table = three_player_game
    active, _, other = waiting_and_other(table)
    held_for(table, 3601)
    answer = nudge(other, table)
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"nudged": active}


def test_too_early_before_an_hour(three_player_game, run_notify):
    table = three_player_game
    _, _, other = waiting_and_other(table)
    held_for(table, 3500)
    assert error_of(nudge(other, table)) == (400, "nudge_too_early")
    assert not Nudge.objects.exists()


def test_once_per_table_per_day_with_retry_after(three_player_game, run_notify):
    table = three_player_game
    _, _, other = waiting_and_other(table)
    held_for(table, 2 * 3600)
    assert nudge(other, table).status_code == 200
    again = nudge(other, table)
    assert error_of(again) == (429, "nudge_limit")
    retry = int(again["Retry-After"])
    assert 24 * 3600 - 60 <= retry <= 24 * 3600
    # A day later, another nudge goes.
    Nudge.objects.update(created=timezone.now() - timedelta(hours=24, seconds=1))
    assert nudge(other, table).status_code == 200


def test_not_seated_is_refused(three_player_game, charlie, run_notify):
    table = three_player_game
    held_for(table, 2 * 3600)
    assert error_of(nudge(charlie, table)) == (403, "not_seated")


def test_nobody_nudges_themselves(three_player_game, run_notify):
    table = three_player_game
    _, waiting, _ = waiting_and_other(table)
    held_for(table, 2 * 3600)
    assert error_of(nudge(waiting, table)) == (409, "nudge_not_waiting")


def test_a_nudge_is_pushed_to_the_nudged_player_only(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    users = seated(table)
    active, waiting, other = waiting_and_other(table)
    subs = {}
    for user in users.values():
        subs[user.pk] = receiver.subscriber()
        signed_in_client(user).post(
            "/api/push/subscriptions", subs[user.pk].to_json(), content_type="application/json"
        )
    held_for(table, 3 * 3600)
    with django_capture_on_commit_callbacks(execute=True):
        assert nudge(other, table).status_code == 200
    got = receiver.for_endpoint(subs[waiting.pk])
    assert len(got) == 1
    payload = subs[waiting.pk].decrypt(got[0].body)
    assert payload["title"] == f"{other.username} nudges you"
    assert payload["url"] == f"/tables/{table.pk}/" and payload["kind"] == "nudge"
    assert len(receiver.received) == 1  # nobody else
    assert mail.outbox == []  # a push, so no email
    assert Nudge.objects.get().outcome == "push"
    # Nobody else sees it: not in the table's payload, nor its chat.
    third = next(u for u in users.values() if u.pk not in (waiting.pk, other.pk))
    page = signed_in_client(third).get(f"/api/tables/{table.pk}").content.decode()
    chat = signed_in_client(third).get(f"/api/tables/{table.pk}/chat").content.decode()
    assert "nudge" not in page.lower() and "nudge" not in chat.lower()


def test_without_a_subscription_the_nudge_is_an_email(
    three_player_game, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    _, waiting, other = waiting_and_other(table)
    held_for(table, 3 * 3600)
    with django_capture_on_commit_callbacks(execute=True):
        assert nudge(other, table).status_code == 200
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    message = mail.outbox[0]
    assert f"{other.username} nudges you" in message.subject
    assert f"/tables/{table.pk}/" in message.body
    assert Nudge.objects.get().outcome == "email"


def test_a_blocked_players_nudges_never_arrive(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    _, waiting, other = waiting_and_other(table)
    sub = receiver.subscriber()
    signed_in_client(waiting).post(
        "/api/push/subscriptions", sub.to_json(), content_type="application/json"
    )
    block_add(user=waiting, username=other.username)
    held_for(table, 3 * 3600)
    with django_capture_on_commit_callbacks(execute=True):
        answer = nudge(other, table)
    assert answer.status_code == 200  # silent: the nudger is not told
    assert receiver.received == [] and mail.outbox == []
    assert Nudge.objects.get().outcome == "blocked"


def test_nudges_turned_off_on_the_profile_do_not_arrive(
    three_player_game, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    _, waiting, other = waiting_and_other(table)
    signed_in_client(waiting).post("/accounts/profile/push/", {"push_turn": "on"})
    held_for(table, 3 * 3600)
    with django_capture_on_commit_callbacks(execute=True):
        nudge(other, table)
    assert mail.outbox == []


def test_the_table_page_has_the_nudge_button(three_player_game):
    table = three_player_game
    _, _, other = waiting_and_other(table)
    page = signed_in_client(other).get(f"/tables/{table.pk}/").content.decode()
    assert f'data-nudge="/api/tables/{table.pk}/nudge"' in page


def test_a_game_against_bots_only_offers_no_nudge(alice):
    # Play now: nobody but bots at the table, so a nudge could reach no one.
    table = games_services.table_play_now(user=alice, seed="nudge-bots")
    page = signed_in_client(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "Turn on push notifications" in page
    assert "data-nudge=" not in page
