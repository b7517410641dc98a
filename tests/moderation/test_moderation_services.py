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
from tests.conftest import PASSWORD, make_moderator
from tests.moderation.conftest import error_of


@pytest.fixture
def mod(django_user_model):
    return make_moderator("mod", "senior")


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


def test_a_suspended_users_token_says_the_account_is_suspended(
    three_player_game, bob, mod, api_for
):
    # The token still exists and works again when the suspension ends, yet the answer said
    # "this API token is not valid": a script's owner would replace a good token.
    token_client = api_for(bob)
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(days=3), reason="abuse")
    refused = token_client.get(f"/api/tables/{three_player_game.pk}")
    assert error_of(refused) == (401, "bad_token")
    assert "suspended or banned" in refused.json()["error"]["message"]
    # A token that matches nobody is still just not valid.
    stranger = Client(HTTP_AUTHORIZATION="Bearer mayi_nothing_of_the_kind")
    unknown = stranger.get(f"/api/tables/{three_player_game.pk}")
    assert error_of(unknown) == (401, "bad_token")
    assert unknown.json()["error"]["message"] == "this API token is not valid"


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


def test_a_suspended_user_is_told_why_and_until_when_but_only_with_the_right_password(
    three_player_game, bob, mod
):
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(days=2), reason="spam")
    client = Client()
    page = client.post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    text = page.content.decode()
    assert page.status_code == 200 and "_auth_user_id" not in client.session
    assert "Your account is suspended until" in text and "spam" in text
    # A wrong password learns nothing of the suspension.
    wrong = client.post("/accounts/login/", {"username": "bob", "password": "not-it"})
    assert "suspended" not in wrong.content.decode()
    assert "correct username and password" in wrong.content.decode()
    services.user_ban(moderator=mod, user=bob, reason="again")
    banned = client.post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    assert "Your account is banned." in banned.content.decode()


def test_when_a_suspension_ends_the_user_gets_their_seat_back(three_player_game, bob, mod):
    table_id = three_player_game.pk
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(hours=1), reason="x")
    seat = Seat.objects.get(table_id=table_id, user=bob)
    assert seat.played_by_bot
    version = Table.objects.get(pk=table_id).version
    assert services.restrictions_expire(now=timezone.now() + timedelta(hours=2)) == 1
    seat.refresh_from_db()
    assert not seat.played_by_bot and seat.missed_turns == 0
    # A new version, so every socket of the table hears that bob plays again.
    assert Table.objects.get(pk=table_id).version > version
    assert audit("expire").details["seats_returned"] == [table_id]
    assert ChatMessage.objects.filter(table_id=table_id, text__contains="bob is back").exists()


def test_a_lift_gives_back_only_the_seats_still_theirs(three_player_game, bob, carol, mod):
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(days=1), reason="x")
    ban = services.user_ban(moderator=mod, user=bob, reason="y")
    suspension = Restriction.objects.get(user=bob, kind="suspend")
    services.restriction_lift(moderator=mod, restriction_id=suspension.pk, reason="half")
    # Still banned: the seat stays with the bot.
    assert Seat.objects.get(table=three_player_game, user=bob).played_by_bot
    services.restriction_lift(moderator=mod, restriction_id=ban.pk, reason="appeal")
    assert not Seat.objects.get(table=three_player_game, user=bob).played_by_bot
    lifts = list(AuditEntry.objects.filter(action="lift").order_by("pk"))
    assert [e.details["seats_returned"] for e in lifts] == [[], [three_player_game.pk]]


def test_a_seat_given_to_another_user_meanwhile_stays_theirs(three_player_game, bob, charlie, mod):
    ban = services.user_ban(moderator=mod, user=bob, reason="y")
    seat = Seat.objects.get(table=three_player_game, user=bob)
    services.seat_to_user(
        moderator=mod,
        table_id=three_player_game.pk,
        position=seat.position,
        user=charlie,
        reason="bob is gone",
    )
    services.restriction_lift(moderator=mod, restriction_id=ban.pk, reason="appeal")
    seat.refresh_from_db()
    assert seat.user == charlie and not seat.played_by_bot
    assert audit("lift").details["seats_returned"] == []


def test_moderators_cannot_restrict_themselves_or_a_superuser(mod, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", PASSWORD)
    for target in (mod, boss):
        with pytest.raises(services.ModerationRefused):
            services.user_ban(moderator=mod, user=target, reason="no")
    assert not Restriction.objects.exists()
    assert not AuditEntry.objects.filter(action="ban").exists()


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


def test_a_hidden_message_can_be_shown_again(three_player_game, bob, carol, mod, api_for):
    # A message hidden by mistake stayed hidden: the admin had no way back.
    first = chat.chat_post(table_id=three_player_game.pk, user=bob, text="seven of M, really")
    chat.chat_post(table_id=three_player_game.pk, user=carol, text="nice")
    chat.chat_hide(message_id=first.pk, moderator=mod, reason="looked rude")
    url = f"/api/tables/{three_player_game.pk}/chat"
    assert [m["text"] for m in api_for(carol).get(url).json()["messages"]] == ["nice"]
    chat.chat_unhide(message_id=first.pk, moderator=mod, reason="a card, not an insult")
    texts = [m["text"] for m in api_for(carol).get(url).json()["messages"]]
    assert texts == ["seven of M, really", "nice"]  # back in its place
    shown = audit("unhide_message")
    assert shown.actor == mod and shown.target_user == bob
    assert shown.reason == "a card, not an insult"


def test_abort_a_table(three_player_game, alice, mod, api_for):
    results = three_player_game.round_records.count()
    services.table_abort(moderator=mod, table_id=three_player_game.pk, reason="collusion")
    table = Table.objects.get(pk=three_player_game.pk)
    assert table.status == Table.Status.ABORTED
    assert table.turn_deadline is None and table.window_deadline is None
    assert table.round_records.count() == results
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


def test_a_moderator_cannot_abort_a_table_they_play_at(three_player_game, alice, mod):
    # A moderator losing a game could abort it and keep their rating.
    alice = make_moderator("alice", "game", user=alice)
    with pytest.raises(services.ModerationRefused, match="you play at this table"):
        services.table_abort(moderator=alice, table_id=three_player_game.pk, reason="bored")
    assert Table.objects.get(pk=three_player_game.pk).status == Table.Status.PLAYING
    assert not AuditEntry.objects.filter(action="abort_table").exists()
    services.table_abort(moderator=mod, table_id=three_player_game.pk, reason="collusion")
    assert Table.objects.get(pk=three_player_game.pk).status == Table.Status.ABORTED


def test_a_moderator_cannot_reseat_a_table_they_play_at(three_player_game, alice, bob, charlie):
    # alice, a moderator at the table, could give bob's seat to the bot, or to a friend.
    table = three_player_game
    alice = make_moderator("alice", "game", user=alice)
    bobs = Seat.objects.get(table=table, user=bob)
    with pytest.raises(services.ModerationRefused, match="you play at this table"):
        services.seat_to_bot(moderator=alice, table_id=table.pk, position=bobs.position, reason="x")
    with pytest.raises(services.ModerationRefused, match="you play at this table"):
        services.seat_to_user(
            moderator=alice, table_id=table.pk, position=bobs.position, user=charlie, reason="x"
        )
    bobs.refresh_from_db()
    assert bobs.user == bob and not bobs.is_bot
    assert not ChatMessage.objects.filter(table=table).exists()  # no notice either
    assert not AuditEntry.objects.filter(action__in=["seat_to_bot", "seat_to_user"]).exists()


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


def test_a_suspended_host_s_waiting_tables_pass_on_or_close(alice, bob, carol, mod):
    from games import services as games

    shared = games.table_create(host=alice, seats=3)
    games.table_join(user=bob, table_id=shared.pk)
    alone = games.table_create(host=alice, seats=4)
    guest = games.table_create(host=carol, seats=3)
    games.table_join(user=alice, table_id=guest.pk)

    services.user_suspend(moderator=mod, user=alice, duration=timedelta(days=2), reason="abuse")

    # bob is the host of the table he joined and can start it; alice's own table with nobody
    # else closed; at carol's, alice's seat is free again.
    shared.refresh_from_db()
    assert shared.status == Table.Status.OPEN and shared.host == bob
    assert list(Seat.objects.filter(table=shared).values_list("user__username", flat=True)) == [
        "bob"
    ]
    alone.refresh_from_db()
    assert alone.status == Table.Status.ABORTED
    assert not Seat.objects.filter(table=guest, user=alice).exists()
    # The lobby no longer offers a table waiting on alice.
    lobby = games.lobby_for_user(user=carol)
    assert {e.table.pk for e in lobby.open_tables} == {shared.pk}
    assert sorted(audit(AuditEntry.Action.SUSPEND).details["left_open_tables"]) == sorted(
        [shared.pk, alone.pk, guest.pk]
    )
