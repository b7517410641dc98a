"""The moderators' admin: who gets in (staff, with a second factor), the Moderators group's
permissions, each action through the admin, and a moderator refused what they may not do."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.utils import timezone
from django.utils.html import escape
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from chat import services as chat
from chat.models import ChatMessage
from games import engine
from games import services as games
from games.engine.bots import choose_action
from games.engine.cards import face_data
from games.models import Seat, Table
from moderation import services
from moderation.models import AuditEntry, Report, Restriction
from moderation.permissions import GROUPS, ROLE_PERMISSIONS, SENIOR
from tests.conftest import PASSWORD, verified_client


def make_staff(django_user_model: Any, name: str, *, moderator: bool = True) -> Any:
    user = django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
    user.is_staff = True
    user.save()
    if moderator:
        user.groups.add(Group.objects.get(name=GROUPS[SENIOR]))
    return user


@pytest.fixture
def mod(db: None, django_user_model: Any) -> Any:
    return make_staff(django_user_model, "mod")


def code_of(device: TOTPDevice) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


@pytest.mark.parametrize("role", list(GROUPS))
def test_each_role_s_group_has_exactly_its_permissions(db, role):
    held = {
        (p.content_type.app_label, p.content_type.model, p.codename)
        for p in Group.objects.get(name=GROUPS[role]).permissions.select_related("content_type")
    }
    assert held == set(ROLE_PERMISSIONS[role])
    assert not Group.objects.filter(name="Moderators").exists()


def test_only_verified_staff_reach_the_admin(alice, mod, django_user_model):
    # A player, signed in: sent to the admin's sign-in.
    player = Client()
    player.force_login(alice)
    assert player.get("/admin/").status_code == 302
    # Staff, even a superuser, signed in with the password only: the same.
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", PASSWORD)
    for user in (mod, boss):
        password_only = Client()
        password_only.force_login(user)
        response = password_only.get("/admin/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    # With the second factor: in.
    assert verified_client(mod).get("/admin/").status_code == 200
    # A non-staff user with a verified device still is not staff.
    assert verified_client(alice).get("/admin/").status_code == 302


def test_the_admin_sign_in_asks_for_the_code_and_takes_a_recovery_code(mod):
    device = TOTPDevice.objects.create(user=mod, name="phone", confirmed=True)
    client = Client()
    no_code = client.post("/admin/login/", {"username": "mod", "password": PASSWORD})
    assert no_code.status_code == 200 and client.get("/admin/").status_code == 302
    assert "Type the code your authenticator app shows" in no_code.content.decode()
    # A device named outright (as django-otp's own page sent it) still works.
    login = {"username": "mod", "password": PASSWORD, "otp_device": device.persistent_id}
    wrong = client.post("/admin/login/", {**login, "otp_token": "000000"})
    assert wrong.status_code == 200 and client.get("/admin/").status_code == 302
    # A wrong code makes the next try wait (django-otp's throttling); the test does not.
    device.refresh_from_db()
    device.throttle_reset()
    ok = client.post("/admin/login/", {**login, "otp_token": code_of(device)})
    assert ok.status_code == 302 and client.get("/admin/").status_code == 200

    codes = StaticDevice.objects.create(user=mod, name="recovery", confirmed=True)
    codes.token_set.create(token="recover1")
    other = Client()
    other.post(
        "/admin/login/",
        {**login, "otp_device": codes.persistent_id, "otp_token": "recover1"},
    )
    assert other.get("/admin/").status_code == 200
    assert not codes.token_set.exists()  # a recovery code works once


def test_the_admin_sign_in_takes_the_code_with_the_password_in_one_step(mod):
    # django-otp's page asked to pick a device after the password ("Please select a device.")
    # and for the code again: the code's shape says which device it is from.
    device = TOTPDevice.objects.create(user=mod, name="phone", confirmed=True)
    codes = StaticDevice.objects.create(user=mod, name="recovery", confirmed=True)
    codes.token_set.create(token="recover1")
    page = Client().get("/admin/login/").content.decode()
    assert 'name="otp_token"' in page and "recovery codes" in page
    assert "otp_device" not in page and "otp_challenge" not in page
    login = {"username": "mod", "password": PASSWORD}

    app = Client()
    assert app.post("/admin/login/", {**login, "otp_token": code_of(device)}).status_code == 302
    assert app.get("/admin/").status_code == 200

    recovery = Client()
    assert recovery.post("/admin/login/", {**login, "otp_token": "recover1"}).status_code == 302
    assert recovery.get("/admin/").status_code == 200
    assert not codes.token_set.exists()

    # A wrong code counts against the one device it looks like, never the others.
    wrong = Client().post("/admin/login/", {**login, "otp_token": "00000"}).content.decode()
    assert "That code is not right" in wrong
    device.refresh_from_db()
    assert device.throttling_failure_count == 1


def test_a_suspended_moderator_loses_the_admin_at_once(mod, django_user_model):
    client = verified_client(mod)
    assert client.get("/admin/").status_code == 200
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", PASSWORD)
    services.user_ban(moderator=boss, user=mod, reason="leaked hands")
    assert client.get("/admin/").status_code == 302


def test_enrolling_a_totp_device_with_a_qr_code(mod, alice):
    client = Client()
    client.force_login(mod)
    page = client.get("/accounts/2fa/")
    html = page.content.decode()
    assert page.status_code == 200 and "<svg" in html and 'id="otp-secret"' in html
    assert 'style="' not in html
    device = TOTPDevice.objects.get(user=mod, confirmed=False)
    wrong = client.post("/accounts/2fa/", {"token": "123456"})
    assert wrong.status_code == 400 and "not right" in wrong.content.decode()
    done = client.post("/accounts/2fa/", {"token": code_of(device)})
    assert done.status_code == 200
    device.refresh_from_db()
    assert device.confirmed
    codes = StaticDevice.objects.get(user=mod).token_set.values_list("token", flat=True)
    shown = done.content.decode()
    assert len(codes) == 10 and all(code in shown for code in codes)
    # This session proved the factor: the admin opens; the audit log says so.
    assert client.get("/admin/").status_code == 200
    assert AuditEntry.objects.filter(action="otp_enrol", actor=mod).exists()
    # Players are told the page is not for them.
    player = Client()
    player.force_login(alice)
    assert player.get("/accounts/2fa/").status_code == 403


def post_action(client, url, action, ids, **data):
    return client.post(
        url, {"action": action, "_selected_action": [str(i) for i in ids], "apply": "1", **data}
    )


def test_suspend_mute_and_ban_through_the_admin(three_player_game, mod, bob, carol):
    client = verified_client(mod)
    url = "/admin/moderation/member/"
    assert client.get(url).status_code == 200
    response = post_action(client, url, "suspend", [bob.pk], days="2", hours="0", reason="abuse")
    assert response.status_code == 302
    restriction = Restriction.objects.get(user=bob)
    assert restriction.kind == "suspend"
    assert AuditEntry.objects.get(action="suspend").actor == mod
    post_action(client, url, "mute", [carol.pk], days="0", hours="3", reason="spam")
    assert Restriction.objects.get(user=carol).kind == "mute"
    # Lift bob's suspension from the restrictions list.
    post_action(client, "/admin/moderation/restriction/", "lift", [restriction.pk], reason="appeal")
    bob.refresh_from_db()
    assert bob.is_active


def test_each_reason_says_who_reads_it(three_player_game, mod, bob):
    # The reason's help said "the players read it when a table is aborted" on every form, yet
    # a suspended or banned user reads their reason at sign-in: a moderator writing a note for
    # the audit log alone was not told the user would see it.
    client = verified_client(mod)

    def help_of(url, action, ids):
        page = client.post(url, {"action": action, "_selected_action": [str(i) for i in ids]})
        assert page.status_code == 200
        return page.content.decode()

    members = "/admin/moderation/member/"
    for action in ("suspend", "ban"):
        html = help_of(members, action, [bob.pk])
        assert "the user reads it when they try to sign in" in html
        assert "table is aborted" not in html
    assert "sign in" not in help_of(members, "mute", [bob.pk])
    aborting = help_of("/admin/moderation/tablecase/", "abort", [three_player_game.pk])
    assert "the players read it in the table" in aborting


def test_a_moderator_without_a_permission_is_refused(three_player_game, django_user_model, bob):
    limited = make_staff(django_user_model, "limited", moderator=False)
    limited.user_permissions.add(
        Permission.objects.get(codename="view_member"),
        Permission.objects.get(codename="view_tablecase"),
    )
    client = verified_client(limited)
    page = client.get("/admin/moderation/member/")
    assert page.status_code == 200 and 'value="suspend"' not in page.content.decode()
    post_action(client, "/admin/moderation/member/", "suspend", [bob.pk], days="1", reason="x")
    post_action(client, "/admin/moderation/member/", "ban", [bob.pk], reason="x")
    assert not Restriction.objects.exists()
    bob.refresh_from_db()
    assert bob.is_active
    table = three_player_game.pk
    assert client.get(f"/admin/moderation/tablecase/{table}/inspect/").status_code == 403
    assert (
        client.post(
            f"/admin/moderation/tablecase/{table}/reseat/",
            {"position": "2", "username": "", "reason": "x"},
        ).status_code
        == 403
    )
    post_action(client, "/admin/moderation/tablecase/", "abort", [table], reason="x")
    assert Table.objects.get(pk=table).status == Table.Status.PLAYING
    assert client.get("/admin/moderation/auditentry/").status_code == 403
    assert client.get("/admin/games/table/").status_code == 403
    assert not AuditEntry.objects.exists()


def test_abort_reseat_inspect_and_hide_through_the_admin(three_player_game, mod, bob, charlie):
    client = verified_client(mod)
    table = three_player_game
    said = chat.chat_post(table_id=table.pk, user=bob, text="<b>rude</b>")
    listing = client.get("/admin/chat/chatmessage/").content.decode()
    assert "&lt;b&gt;rude&lt;/b&gt;" in listing and "<b>rude</b>" not in listing
    post_action(client, "/admin/chat/chatmessage/", "hide", [said.pk], reason="insult")
    assert ChatMessage.objects.get(pk=said.pk).hidden

    page = client.get(f"/admin/moderation/tablecase/{table.pk}/inspect/")
    html = page.content.decode()
    assert page.status_code == 200
    for hand in table.state["hands"]:
        # Each card named as the table names it, its id (the deck it is from) on hover.
        for card in hand:
            label = escape(face_data(card)["label"])
            assert f'title="{card}">{label}</span>' in html
    top = engine.view(table.state, None)["discard_top"]
    assert 'Discard top: <span class="face' in html and f'title="{top}">' in html
    # The next card drawn: the stock is drawn from its end (it named the bottom card "next").
    assert '(next: <span class="face' in html and f'title="{table.state["stock"][-1]}">' in html
    assert AuditEntry.objects.filter(action="inspect_table", actor=mod).count() == 1

    seat = Seat.objects.get(table=table, user=bob)
    response = client.post(
        f"/admin/moderation/tablecase/{table.pk}/reseat/",
        {"position": str(seat.position + 1), "username": "charlie", "reason": "bob left"},
    )
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.user == charlie
    bad = client.post(
        f"/admin/moderation/tablecase/{table.pk}/reseat/",
        {"position": str(seat.position + 1), "username": "nobody", "reason": "x"},
    )
    assert bad.status_code == 200 and "no user" in bad.content.decode()

    post_action(client, "/admin/moderation/tablecase/", "abort", [table.pk], reason="cheating")
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"hide_message", "inspect_table", "seat_to_user", "abort_table"} <= actions


def test_a_moderator_cannot_read_the_hands_of_a_game_they_play(three_player_game, mod, alice):
    # A moderator seated at a table being played could open "state, hands, replay" and read
    # every opponent's hand and the stock order.
    alice.is_staff = True
    alice.save()
    alice.groups.add(Group.objects.get(name=GROUPS[SENIOR]))
    table = three_player_game
    url = f"/admin/moderation/tablecase/{table.pk}/inspect/"
    playing = verified_client(alice)
    refused = playing.get(url, follow=True)
    html = refused.content.decode()
    assert "You play at this table" in html
    bob_hand = table.state["hands"][1]
    assert not any(card in html for card in bob_hand)
    assert not AuditEntry.objects.filter(action="inspect_table").exists()
    # Another moderator reads it; and alice may once the game is over.
    assert verified_client(mod).get(url).status_code == 200
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert playing.get(url).status_code == 200


def test_the_inspect_page_names_who_made_each_move(three_player_game, mod):
    # The moves read "2", "3 (bot)": the moderator looked up each seat in the hands table.
    table = three_player_game
    active = engine.view(table.state, None)["active_seat"]
    mover = Seat.objects.get(table=table, position=active).user
    games.table_submit_action(
        table_id=table.pk,
        user=mover,
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    html = verified_client(mod).get(f"/admin/moderation/tablecase/{table.pk}/inspect/")
    page = html.content.decode()
    assert f"<td>{active + 1} {mover.username}</td>" in page
    assert f"seat {active + 1} ({mover.username}) to play" in page
    # What the move did, in words, with the stored action beside it.
    assert f"{mover.username} draws from the stock" in page
    assert "&#x27;source&#x27;: &#x27;stock&#x27;" in page


def test_the_inspect_page_names_a_bot_as_the_table_and_the_replay_do(bot_game, mod, alice):
    # The hands said "bot" while the moves' words said "bot 3", and the table page "Bot 3": a
    # moderator matching a report ("Bot 3 kept taking my discards") to the record read three
    # names for one seat.
    table = bot_game
    for _ in range(6):  # until a bot has moved
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING or any(m.by_bot for m in table.moves.all()):
            break
        active = engine.view(table.state, None)["active_seat"]
        action = choose_action(table.state, active)
        games.table_submit_action(
            table_id=table.pk, user=alice, action=action, expect_version=table.version
        )
    bots = [s.position for s in Seat.objects.filter(table=table, user=None)]
    page = verified_client(mod).get(f"/admin/moderation/tablecase/{table.pk}/inspect/")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode()))
    for position in bots:
        assert f"{position + 1} Bot {position + 1}" in text  # the hands' row
    moved = [m for m in table.moves.all() if m.by_bot]
    assert moved, "no bot moved"
    name = f"Bot {moved[0].seat + 1}"
    # The seat and its player (a bot made the move), then the move in words.
    assert f"{moved[0].seat + 1} {name} (bot) {name} says" in text
    assert not re.search(r"\bbot \d", text)


def test_the_report_queue(public_game, mod, alice, bob):
    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    report = services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    client = verified_client(mod)
    queue = client.get("/admin/moderation/report/?status__exact=open").content.decode()
    assert "potato" in queue and f"/inspect/?move={said.move_seq}" in queue
    detail = client.get(f"/admin/moderation/report/{report.pk}/change/")
    assert detail.status_code == 200 and "potato" in detail.content.decode()
    post_action(client, "/admin/moderation/report/", "assign_to_me", [report.pk])
    post_action(client, "/admin/moderation/report/", "resolve", [report.pk], note="muted bob")
    report.refresh_from_db()
    assert report.status == "resolved" and report.assignee == mod
    assert report.resolution == "muted bob"


def test_a_report_is_acted_on_from_its_own_page(public_game, mod, alice, bob):
    # The report's page had only "Close": to hide the message or resolve the report the
    # moderator went back to a list, found the row again and picked the action there.
    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    report = services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    client = verified_client(mod)
    url = f"/admin/moderation/report/{report.pk}/change/"
    page = client.get(url).content.decode()
    for label in ("Assign to me", "Resolve…", "Hide the message…", "Mute bob…", "Suspend bob…"):
        assert f">{label}</button>" in page
    assert "shown at the table" in page
    buttons = {a["action"]: a for a in client.get(url).context["page_actions"]}

    def press(action, **form):
        button = buttons[action]
        data = {"action": action, "_selected_action": str(button["pk"]), "index": "0"}
        asked = client.post(button["url"], data)
        assert asked.status_code == 200  # the action's own form: a reason, a note...
        return client.post(button["url"], {**data, "apply": "1", **form})

    assert press("hide", reason="insult").status_code == 302
    assert press("resolve", note="hid it").status_code == 302
    report.refresh_from_db()
    assert report.status == "resolved" and report.resolution == "hid it"
    page = client.get(url).content.decode()
    assert "hidden by a moderator" in page
    assert "Resolve…" not in page and "Hide the message…" not in page
    assert ">Mute bob…</button>" in page  # the user can still be acted on
    # Hidden by mistake: the same page shows it again.
    buttons = {a["action"]: a for a in client.get(url).context["page_actions"]}
    assert press("unhide", reason="it was a card name").status_code == 302
    said.refresh_from_db()
    assert not said.hidden
    assert "shown at the table" in client.get(url).content.decode()


def test_the_people_a_report_names_link_to_their_member_pages(
    public_game, mod, alice, bob, django_user_model
):
    # A read-only user field links to Django's user editor, which a moderator may not open: the
    # report's "bob" led to a bare "403 Forbidden".
    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    report = services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    client = verified_client(mod)
    page = client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()
    for user in (alice, bob):
        link = re.search(rf'<a href="([^"]+)">{user.username}</a>', page)
        assert link is not None
        landed = client.get(link.group(1), follow=True)
        assert landed.status_code == 200
        assert landed.redirect_chain[-1][0] == f"/admin/moderation/member/{user.pk}/change/"
        assert "Reports about them:" in landed.content.decode()
    # A superuser still gets the user editor there.
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", PASSWORD)
    editor = verified_client(boss)
    assert editor.get(f"/admin/auth/user/{bob.pk}/change/").status_code == 200


def test_a_report_shows_the_reported_member_s_record(public_game, mod, alice, bob, carol):
    # The moderator weighed a report without knowing it was the third about bob, or that he was
    # already muted: that was a click away, on the member's page.
    client = verified_client(mod)
    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    first = services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    page = client.get(f"/admin/moderation/report/{first.pk}/change/").content.decode()
    assert "1 report about them, 1 not resolved" in page and "never restricted" in page
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(hours=1), reason="rude")
    services.restriction_lift(
        moderator=mod, restriction_id=Restriction.objects.get().pk, reason="apologised"
    )
    services.user_mute(moderator=mod, user=bob, duration=timedelta(days=2), reason="rude again")
    services.report_resolve(report_id=first.pk, moderator=mod, note="muted")
    second = services.report_create(
        reporter=carol, table_id=public_game.pk, reason="stalling", username="bob"
    )
    page = client.get(f"/admin/moderation/report/{second.pk}/change/").content.decode()
    assert "2 reports about them, 1 not resolved" in page
    assert "<strong>muted in chat until" in page and "1 earlier restriction" in page
    assert "never restricted" not in page
    # A report of a player has no message to show or hide.
    assert "The reported message now" not in page
    assert (
        "The reported message now"
        in client.get(f"/admin/moderation/report/{first.pk}/change/").content.decode()
    )


def test_a_member_is_acted_on_from_their_own_page(three_player_game, mod, bob):
    # The member's page had only "Close": to suspend bob, or lift his mute, the moderator
    # went back to a list and found the row again.
    client = verified_client(mod)
    url = f"/admin/moderation/member/{bob.pk}/change/"

    def buttons():
        response = client.get(url)
        return {a["label"]: a for a in response.context["page_actions"]}, response

    found, page = buttons()
    assert set(found) == {"Suspend…", "Ban…", "Mute in chat…"}
    assert ">Mute in chat…</button>" in page.content.decode()

    def press(button, **form):
        data = {
            "action": button["action"],
            "_selected_action": str(button["pk"]),
            "index": "0",
            "next": url,
        }
        asked = client.post(button["url"], data)
        assert asked.status_code == 200  # the action's form, which keeps the way back
        assert f'name="next" value="{url}"' in asked.content.decode()
        return client.post(button["url"], {**data, "apply": "1", **form})

    done = press(found["Mute in chat…"], days="1", hours="0", reason="spam")
    assert done.status_code == 302 and done["Location"] == url  # back on bob's page
    mute = Restriction.objects.get(user=bob, kind="mute")
    found, _ = buttons()
    assert "Lift: muted in chat…" in found
    assert press(found["Lift: muted in chat…"], reason="apologised").status_code == 302
    mute.refresh_from_db()
    assert mute.lifted is not None
    assert "Lift: muted in chat…" not in buttons()[0]
    # Another site is never a way back.
    off = {"action": "mute", "_selected_action": str(bob.pk), "index": "0", "apply": "1"}
    away = client.post(
        "/admin/moderation/member/",
        {**off, "next": "https://evil.example/", "days": "1", "hours": "0", "reason": "x"},
    )
    assert away.status_code == 302 and "evil" not in away["Location"]


def test_a_members_page_shows_their_record(public_game, mod, alice, bob, carol):
    # The member's page showed only the account's fields: a moderator about to suspend bob
    # could not see that he was muted for insults last week, nor the reports about him.
    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    services.report_create(
        reporter=carol, table_id=public_game.pk, reason="stalling", username="bob"
    )
    services.report_create(reporter=bob, table_id=public_game.pk, reason="spam", username="carol")
    mute = services.user_mute(
        moderator=mod, user=bob, duration=timedelta(hours=1), reason="insulted alice"
    )
    services.restriction_lift(moderator=mod, restriction_id=mute.pk, reason="appeal")
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(days=2), reason="abuse")
    client = verified_client(mod)
    page = client.get(f"/admin/moderation/member/{bob.pk}/change/").content.decode()
    assert "in force: suspended" in page and ": abuse" in page
    assert "ended " in page and "muted in chat" in page and "insulted alice" in page
    assert page.index("suspended") < page.index("insulted alice")  # newest first
    assert "2 reports, 2 not resolved" in page
    # In the moderator's words, without Django's help texts for editing an account.
    assert "cannot sign in (suspended or banned)" in page and "player" in page
    assert "Unselect this instead of deleting accounts" not in page
    assert "Letters, digits and" not in page
    assert f"/players/{bob.username}/" in page
    # The link lists the reports about bob, not the one he made.
    link = f"/admin/moderation/report/?reported_user__id__exact={bob.pk}"
    assert link.replace("&", "&amp;") in page
    about = client.get(link)
    assert about.status_code == 200
    assert about.context["cl"].result_count == 2
    log = f"/admin/moderation/auditentry/?target_user__id__exact={bob.pk}"
    assert log.replace("&", "&amp;") in page
    # The two reports about him, the mute, its lift, the suspension.
    assert client.get(log).context["cl"].result_count == 5
    plus = type(bob).objects.create_user("ann+x")
    tables = client.get(f"/admin/moderation/member/{plus.pk}/change/").content.decode()
    assert "/admin/moderation/tablecase/?q=ann%2Bx" in tables  # not a search for "ann x"
    quiet = client.get(f"/admin/moderation/member/{alice.pk}/change/").content.decode()
    assert "none" in quiet and "not resolved" not in quiet


def test_the_restrictions_filter_says_in_force_or_ended(three_player_game, mod, bob, carol):
    # "By lifted: Empty / Not empty" was the only way to find who is restricted now, and an
    # expired suspension counted as lifted only after the sweep had run.
    services.user_suspend(moderator=mod, user=bob, duration=timedelta(days=2), reason="abuse")
    ended = services.user_mute(
        moderator=mod, user=carol, duration=timedelta(hours=1), reason="spam"
    )
    Restriction.objects.filter(pk=ended.pk).update(until=timezone.now() - timedelta(minutes=1))
    client = verified_client(mod)
    url = "/admin/moderation/restriction/"
    page = client.get(url).content.decode()
    assert "By in force" in page and "in force now" in page and "ended (lifted or expired)" in page
    assert "Not empty" not in page

    def users(query):
        return {r.user.username for r in client.get(url + query).context["cl"].result_list}

    assert users("?in_force=yes") == {"bob"}
    assert users("?in_force=no") == {"carol"}
    assert users("") == {"bob", "carol"}


def test_the_audit_log_is_read_only_and_filterable(three_player_game, mod, bob):
    services.user_mute(moderator=mod, user=bob, duration=timedelta(hours=1), reason="x")
    client = verified_client(mod)
    entry = AuditEntry.objects.get()
    assert client.get("/admin/moderation/auditentry/?action__exact=mute").status_code == 200
    assert client.get(f"/admin/moderation/auditentry/?actor__id__exact={mod.pk}").status_code == 200
    assert client.get(f"/admin/moderation/auditentry/{entry.pk}/change/").status_code == 200
    assert client.post(f"/admin/moderation/auditentry/{entry.pk}/delete/").status_code == 403
    assert client.get("/admin/moderation/auditentry/add/").status_code == 403
    assert Report.objects.count() == 0


def test_moderator_add_makes_a_moderator_and_remove_undoes_it(alice):
    from django.core.management import call_command

    Group.objects.filter(name=GROUPS["game"]).delete()  # remade if missing
    call_command("moderator_add", "alice", stdout=io.StringIO())  # a game moderator
    alice.refresh_from_db()
    assert alice.is_staff and alice.has_perm("moderation.suspend_member")
    assert not alice.has_perm("moderation.ban_member")
    assert verified_client(alice).get("/admin/moderation/report/").status_code == 200
    call_command("moderator_add", "alice", "--remove", stdout=io.StringIO())
    alice = type(alice).objects.get(pk=alice.pk)
    assert not alice.is_staff and not alice.has_perm("moderation.suspend_member")
    assert AuditEntry.objects.filter(action="role", target_user=alice).count() == 2


def test_the_admin_index_names_its_models_in_english(admin_client):
    # It listed "Player statss" and "Api tokens".
    page = admin_client.get("/admin/").content.decode()
    assert "Player statss" not in page and ">Player stats<" in page
    assert "Api tokens" not in page and ">API tokens<" in page


def test_the_tables_list_puts_the_state_link_before_the_details(three_player_game, mod):
    # On a phone the list scrolls sideways after four or five columns; the state and hands
    # link was the last column, out of sight.
    page = verified_client(mod).get("/admin/moderation/tablecase/").content.decode()
    at = page.index(f"/admin/moderation/tablecase/{three_player_game.pk}/change/")
    row = page[page.rindex("<tr", 0, at) :]
    row = row[: row.index("</tr>")]
    # The checkbox, the id, then the links.
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
    assert "state, hands, replay" in cells[2]
    assert any("alice, bob, carol" in c for c in cells[3:])


def test_staff_without_an_authenticator_are_told_how_to_set_one_up(mod):
    client = Client()
    page = client.post("/admin/login/", {"username": "mod", "password": PASSWORD})
    text = page.content.decode()
    assert page.status_code == 200 and client.get("/admin/").status_code == 302
    assert "not set up two-factor sign-in yet" in text and "/accounts/2fa/" in text
    # A wrong password says nothing of the account's devices.
    wrong = Client().post("/admin/login/", {"username": "mod", "password": "nope"})
    assert "not set up two-factor" not in wrong.content.decode()
    # Once one is set up, the sign-in asks for its code as before.
    TOTPDevice.objects.create(user=mod, name="phone", confirmed=True)
    again = Client().post("/admin/login/", {"username": "mod", "password": PASSWORD})
    assert "not set up two-factor" not in again.content.decode()


def test_the_front_page_says_what_waits_on_the_moderator(
    public_game, mod, alice, bob, carol, django_user_model
):
    # Its sidebar was Django's "Recent actions", which nothing here writes: "None available"
    # whatever a moderator did. It now counts the queue and lists their own actions.
    client = verified_client(mod)
    empty = client.get("/admin/").content.decode()
    assert "None available" not in empty
    assert re.search(
        r'id="desk-open">.*?<strong>0</strong> open reports.*?nobody is waiting', empty
    )

    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    taken = services.report_create(
        reporter=carol, table_id=public_game.pk, reason="stalling", username="bob"
    )
    services.report_assign(report_id=taken.pk, moderator=mod)
    services.user_mute(
        moderator=mod, user=bob, duration=timedelta(hours=1), reason="insulted alice"
    )
    page = client.get("/admin/").content.decode()
    assert re.search(r'id="desk-open">.*?<strong>1</strong> open report<', page, re.S)
    assert re.search(r'id="desk-mine">.*?<strong>1</strong> assigned to you', page, re.S)
    assert re.search(
        r'id="desk-restrictions">.*?<strong>1</strong> restriction in force', page, re.S
    )
    actions = page.split('id="desk-actions"')[1]
    assert "mute a user in chat: bob" in actions and "insulted alice" in actions
    assert "report assigned" in actions
    # Each count leads to the list it counts.
    mine = f"/admin/moderation/report/?status__exact=assigned&assignee__id__exact={mod.pk}"
    assert mine.replace("&", "&amp;") in page
    assert client.get(mine).context["cl"].result_count == 1
    assert "<title>Reports | May I? admin</title>" in client.get(mine).content.decode()
    assert (
        client.get("/admin/moderation/report/?status__exact=open").context["cl"].result_count == 1
    )
    assert client.get("/admin/moderation/restriction/?in_force=yes").context["cl"].result_count == 1
    # Another moderator's desk lists their actions, not mod's.
    other = make_staff(django_user_model, "mod2")
    assert "insulted alice" not in verified_client(other).get("/admin/").content.decode()


def test_the_table_cases_name_the_bots_as_the_table_does(bot_game, mod):
    # The list said "alice, bot, bot": which bot a report about "Bot 3" meant was a guess.
    page = verified_client(mod).get("/admin/moderation/tablecase/").content.decode()
    assert "alice, Bot 2, Bot 3" in page


def test_a_page_a_moderator_s_role_lacks_says_so(three_player_game, django_user_model):
    limited = make_staff(django_user_model, "limited", moderator=False)
    limited.user_permissions.add(Permission.objects.get(codename="view_tablecase"))
    page = verified_client(limited).get(
        f"/admin/moderation/tablecase/{three_player_game.pk}/inspect/"
    )
    text = page.content.decode()
    # Django's bare "403 Forbidden" said nothing of why or where to go.
    assert page.status_code == 403
    assert "Your staff role does not include this page" in text
    assert 'href="/admin/"' in text
