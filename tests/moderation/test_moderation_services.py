"""Each moderation action: its effect on the user, on the table, and its audit row."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from chat import services as chat
from chat.models import ChatMessage
from games import engine
from games.models import Move, Seat, Table
from moderation import services
from moderation.models import AuditEntry, Restriction
from tests.conftest import PASSWORD
from tests.moderation.conftest import error_of


@pytest.fixture
def mod(django_user_model):
    return django_user_model.objects.create_user("mod", "mod@example.com", PASSWORD, is_staff=True)


def signs_in(username):
    client = Client()
    client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    return "_auth_user_id" in client.session


def audit(action):
    return AuditEntry.objects.filter(action=action).get()


def active_user(table):
    seat = engine.view(table.state, None)["active_seat"]
    return Seat.objects.get(table=table, position=seat)


def test_suspend_closes_every_door(three_player_game, alice, bob, mod, api_for):
    browser = Client()
    browser.force_login(bob)
    token_client = api_for(bob)
    assert token_client.get(f"/api/tables/{three_player_game.pk}").status_code == 200

    services.user_suspend(moderator=mod, user=bob, duration=timedelta(days=3), reason="abuse")

    bob.refresh_from_db()
    assert not bob.is_active
    # Sign-in, the open session (pages and API), the API token: all refused at once.
    assert not signs_in("bob")
    assert browser.get("/accounts/profile/").status_code == 302
    assert error_of(browser.get(f"/api/tables/{three_player_game.pk}")) == (
        401,
        "not_authenticated",
    )
    assert error_of(token_client.get(f"/api/tables/{three_player_game.pk}")) == (401, "bad_token")
    # The seat is the bot's now, and the table says so.
    seat = Seat.objects.get(table=three_player_game, user=bob)
    assert seat.expelled and seat.played_by_bot
    entry = audit("suspend")
    assert entry.actor == mod and entry.target_user == bob and entry.reason == "abuse"
    assert entry.details["seats_to_bot"] == [three_player_game.pk]
    restriction = Restriction.objects.get(user=bob)
    assert restriction.kind == "suspend" and restriction.until > timezone.now() + timedelta(days=2)
    # Everyone still at the table keeps playing; others are not touched.
    assert api_for(alice).get(f"/api/tables/{three_player_game.pk}").status_code == 200


def test_the_bot_plays_a_suspended_players_turn_at_once(three_player_game, mod):
    seat = active_user(three_player_game)
    before = three_player_game.move_count
    services.user_suspend(
        moderator=mod, user=seat.user, duration=timedelta(hours=2), reason="cheating"
    )
    table = Table.objects.get(pk=three_player_game.pk)
    assert table.move_count > before
    assert Move.objects.filter(table=table, seat=seat.position, by_bot=True).exists()
    # Nothing waits on the suspended player any more (the others may have a window to answer).
    assert seat.position not in engine.seats_to_act(table.state)


def test_a_suspension_ends_by_itself_and_a_lift_ends_it_early(three_player_game, bob, mod):
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(hours=1), reason="x")
    assert services.restrictions_expire() == 0
    assert services.restrictions_expire(now=timezone.now() + timedelta(hours=2)) == 1
    assert services.restrictions_expire(now=timezone.now() + timedelta(hours=2)) == 0
    bob.refresh_from_db()
    assert bob.is_active and signs_in("bob")
    expired = audit("expire")
    assert expired.actor is None and expired.target_user == bob

    ban = services.user_ban(moderator=mod, user=bob, reason="again")
    bob.refresh_from_db()
    assert not bob.is_active and ban.until is None
    assert services.restrictions_expire(now=timezone.now() + timedelta(days=9999)) == 0
    services.restriction_lift(moderator=mod, restriction_id=ban.pk, reason="appeal accepted")
    bob.refresh_from_db()
    assert bob.is_active
    assert audit("lift").reason == "appeal accepted"
    with pytest.raises(services.ModerationRefused):
        services.restriction_lift(moderator=mod, restriction_id=ban.pk, reason="twice")


def test_moderators_cannot_restrict_themselves_or_a_superuser(mod, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", PASSWORD)
    for target in (mod, boss):
        with pytest.raises(services.ModerationRefused):
            services.user_ban(moderator=mod, user=target, reason="no")
    assert not Restriction.objects.exists() and not AuditEntry.objects.exists()


def test_mute_and_hide(three_player_game, bob, carol, mod, api_for):
    said = chat.chat_post(table_id=three_player_game.pk, user=bob, text="rude")
    services.user_mute(moderator=mod, user=bob, duration=timedelta(hours=1), reason="rude")
    response = api_for(bob).post(f"/api/tables/{three_player_game.pk}/chat", {"text": "more"})
    assert error_of(response) == (403, "chat_muted")
    assert "muted you in chat until" in response.json()["error"]["message"]
    # Muted, not suspended: bob still plays and reads.
    assert api_for(bob).get(f"/api/tables/{three_player_game.pk}/chat").status_code == 200
    assert audit("mute").target_user == bob

    chat.chat_hide(message_id=said.pk, moderator=mod, reason="insult")
    said.refresh_from_db()
    assert said.hidden and said.text == "rude"  # kept for the record
    page = api_for(carol).get(f"/api/tables/{three_player_game.pk}/chat").json()
    assert page["messages"] == []
    hidden = audit("hide_message")
    assert hidden.target_user == bob and hidden.details["text"] == "rude"

    services.restrictions_expire(now=timezone.now() + timedelta(hours=2))
    ok = api_for(bob).post(f"/api/tables/{three_player_game.pk}/chat", {"text": "sorry"})
    assert ok.status_code == 201


def test_abort_a_table(three_player_game, alice, mod, api_for):
    results = three_player_game.round_results.count()
    services.table_abort(moderator=mod, table_id=three_player_game.pk, reason="collusion")
    table = Table.objects.get(pk=three_player_game.pk)
    assert table.status == Table.Status.ABORTED
    assert table.turn_deadline is None and table.window_deadline is None
    assert table.round_results.count() == results
    body = api_for(alice).get(f"/api/tables/{table.pk}").json()
    assert body["table"]["status"] == "aborted"
    assert body["table"]["aborted"]["reason"] == "collusion"
    notice = ChatMessage.objects.get(table=table, author=None)
    assert notice.audience == "all" and "collusion" in notice.text
    page = api_for(alice).get(f"/api/tables/{table.pk}/chat").json()
    assert page["messages"][-1]["author"] is None
    response = api_for(alice).act(table.pk, table.version, type="draw", source="stock")
    assert error_of(response)[1] == "game_finished"
    entry = audit("abort_table")
    assert entry.table == table and entry.reason == "collusion"
    with pytest.raises(services.ModerationRefused):
        services.table_abort(moderator=mod, table_id=table.pk, reason="again")
    with pytest.raises(services.ModerationRefused):
        services.table_abort(moderator=mod, table_id=table.pk, reason=" ")


def test_give_a_seat_to_the_bot_or_to_another_user(three_player_game, carol, charlie, mod, api_for):
    seat = Seat.objects.get(table=three_player_game, user=carol)
    services.seat_to_user(
        moderator=mod,
        table_id=three_player_game.pk,
        position=seat.position,
        user=charlie,
        reason="carol asked to be replaced",
    )
    table = Table.objects.get(pk=three_player_game.pk)
    body = api_for(charlie).get(f"/api/tables/{table.pk}").json()
    assert body["table"]["my_seat"] == seat.position
    assert body["view"]["hand"] == table.state["hands"][seat.position]
    assert api_for(carol).get(f"/api/tables/{table.pk}").json()["table"]["my_seat"] is None
    entry = audit("seat_to_user")
    assert entry.target_user == charlie and entry.details["previous"] == "carol"

    services.seat_to_bot(
        moderator=mod, table_id=table.pk, position=seat.position, reason="charlie left"
    )
    seat.refresh_from_db()
    assert seat.expelled and seat.user == charlie
    assert audit("seat_to_bot").details["seat"] == seat.position
    with pytest.raises(services.ModerationRefused):
        services.seat_to_bot(moderator=mod, table_id=table.pk, position=seat.position, reason="x")


def test_inspect_replays_the_moves_with_every_hand(bot_game, mod):
    table = Table.objects.get(pk=bot_game.pk)
    full = services.table_inspect(moderator=mod, table_id=table.pk)
    assert full["state"]["hands"] == table.state["hands"] and full["at"] == table.move_count
    assert len(full["moves"]) == table.move_count
    dealt = services.table_inspect(moderator=mod, table_id=table.pk, move=0)
    fresh = engine.new_game(3, table.state["seed"], table.ruleset)
    assert dealt["state"] == fresh and dealt["at"] == 0
    assert AuditEntry.objects.filter(action="inspect_table", table=table).count() == 2


def test_the_replay_rebuilds_the_table_card_for_card(bot_game, alice, mod):
    from games import services as games
    from games.engine.bots import choose_action

    for _ in range(12):  # alice plays as the bot would; the bots answer
        table = Table.objects.get(pk=bot_game.pk)
        for seat in engine.seats_to_act(table.state):
            if seat == 0:
                games.table_submit_action(
                    table_id=table.pk,
                    user=alice,
                    action=choose_action(table.state, 0, "heuristic"),
                    expect_version=table.version,
                )
                break
    table = Table.objects.get(pk=bot_game.pk)
    assert table.move_count > 12
    last = Move.objects.get(table=table, seq=table.move_count)
    before = services.table_inspect(moderator=mod, table_id=table.pk, move=table.move_count - 1)
    assert before["at"] == table.move_count - 1
    state, _ = engine.apply(before["state"], last.seat, last.action)
    assert state == table.state
