"""The graded roles: the matrix of role × action walked through the services themselves
(each refuses with PermissionDenied below its role), the pinned services' limits, and
manage.py moderator_add --role."""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command

from chat import services as chat
from games.models import Seat, Table
from moderation import services
from moderation.models import Appeal, MemberNote, Report, Restriction
from moderation.permissions import GROUPS, ROLE_PERMISSIONS
from tests.conftest import make_moderator, verified_client

ROLES = [None, "chat", "game", "senior", "admin"]


def _hide(ctx: dict[str, Any]) -> Any:
    return chat.chat_hide(message_id=ctx["message"].pk, moderator=ctx["actor"], reason="rude")


def _mute(hours: int) -> Callable[[dict[str, Any]], Any]:
    return lambda ctx: services.user_mute(
        actor=ctx["actor"], user=ctx["bob"], duration=timedelta(hours=hours), reason="rude"
    )


def _suspend(days: int) -> Callable[[dict[str, Any]], Any]:
    return lambda ctx: services.user_suspend(
        actor=ctx["actor"], user=ctx["bob"], duration=timedelta(days=days), reason="stalling"
    )


def _report(room: str) -> Callable[[dict[str, Any]], Any]:
    return lambda ctx: services.report_assign(report_id=ctx[room].pk, actor=ctx["actor"])


ACTIONS: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    # action: (what it does, the lowest role allowed it)
    "hide a message": (_hide, "chat"),
    "mute 24 h": (_mute(24), "chat"),
    "handle a chat report": (_report("chat_report"), "chat"),
    "mute 25 h": (_mute(25), "game"),
    "handle a player report": (_report("play_report"), "game"),
    "inspect a game": (
        lambda ctx: services.table_inspect(actor=ctx["actor"], table_id=ctx["table"].pk),
        "game",
    ),
    "abort a table": (
        lambda ctx: services.table_abort(actor=ctx["actor"], table_id=ctx["table"].pk, reason="x"),
        "game",
    ),
    "replace a player": (
        lambda ctx: services.seat_to_bot(
            actor=ctx["actor"], table_id=ctx["table"].pk, position=ctx["bob_seat"], reason="x"
        ),
        "game",
    ),
    "suspend 7 days": (_suspend(7), "game"),
    "suspend 8 days": (_suspend(8), "senior"),
    "ban": (
        lambda ctx: services.user_ban(actor=ctx["actor"], user=ctx["bob"], reason="again"),
        "senior",
    ),
    "lift another's restriction": (
        lambda ctx: services.restriction_lift(
            actor=ctx["actor"], restriction_id=ctx["carol_mute"].pk, reason="sorry"
        ),
        "senior",
    ),
    "decide an appeal": (
        lambda ctx: services.appeal_decide(
            actor=ctx["actor"], appeal_id=ctx["appeal"].pk, decision="upheld", reason="fair"
        ),
        "senior",
    ),
    "delete a member note": (
        lambda ctx: services.note_delete(actor=ctx["actor"], note_id=ctx["note"].pk, reason="x"),
        "senior",
    ),
    "give a role": (
        lambda ctx: services.moderator_grant(actor=ctx["actor"], user=ctx["alice"], role="chat"),
        "admin",
    ),
}


@pytest.fixture
def ctx(three_player_game: Table, alice: Any, bob: Any, carol: Any, charlie: Any) -> dict:
    table = three_player_game
    boss = make_moderator("boss", "senior")
    said = chat.chat_post(table_id=table.pk, user=bob, text="you are all idiots")
    chat_report = services.report_create(
        reporter=alice, table_id=table.pk, reason="abuse", message_id=said.pk
    )
    play_report = services.report_create(
        reporter=alice, table_id=table.pk, reason="cheating", username="bob"
    )
    carol_mute = services.user_mute(
        actor=boss, user=carol, duration=timedelta(hours=2), reason="rude"
    )
    appeal = services.appeal_file(actor=carol, restriction_id=carol_mute.pk, text="I was joking")
    note = services.note_add(actor=boss, member=bob, text="warned twice in chat")
    return {
        "table": table,
        "alice": alice,
        "bob": bob,
        "bob_seat": Seat.objects.get(table=table, user=bob).position,
        "message": said,
        "chat_report": chat_report,
        "play_report": play_report,
        "carol_mute": carol_mute,
        "appeal": appeal,
        "note": note,
        "charlie": charlie,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_the_role_by_action_matrix(ctx, role, action):
    do, lowest = ACTIONS[action]
    charlie = ctx["charlie"]
    ctx["actor"] = make_moderator("", role, user=charlie) if role else charlie
    allowed = role is not None and ROLES.index(role) >= ROLES.index(lowest)
    if allowed:
        do(ctx)
    else:
        with pytest.raises(PermissionDenied):
            do(ctx)
        # Nothing changed: no restriction of bob, the message shown, the appeal pending...
        assert not Restriction.objects.filter(user=ctx["bob"]).exists()
        assert not ctx["message"].__class__.objects.get(pk=ctx["message"].pk).hidden
        assert Appeal.objects.get().status == "pending"
        assert MemberNote.objects.count() == 1
        assert Report.objects.filter(status="open").count() == 2
        assert Table.objects.get(pk=ctx["table"].pk).status == "playing"
        assert not ctx["alice"].groups.exists()


@pytest.mark.parametrize("role", ["chat", "game", "senior", "admin"])
def test_each_role_is_one_group_named_as_pinned(db, alice, role):
    alice = make_moderator("", role, user=alice)
    assert [g.name for g in alice.groups.all()] == [GROUPS[role]]
    assert alice.is_staff


def test_moderator_add_takes_the_role(alice):
    out = io.StringIO()
    for role, name in GROUPS.items():
        call_command("moderator_add", "alice", "--role", role, stdout=out)
        alice = type(alice).objects.get(pk=alice.pk)
        # A new role replaces the one held: one group at a time.
        assert list(alice.groups.values_list("name", flat=True)) == [name]
    assert alice.has_perm("moderation.roles_member")
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("moderator_add", "alice", "--role", "owner", stderr=io.StringIO())
    call_command("moderator_add", "alice", "--remove", stdout=out)
    alice = type(alice).objects.get(pk=alice.pk)
    assert not alice.groups.exists() and not alice.is_staff


def test_the_migration_makes_the_roles_and_moves_the_moderators_of_before(alice, bob):
    # The database as it was: the single "Moderators" group, alice in it.
    Group.objects.filter(name__in=GROUPS.values()).delete()
    Group.objects.create(name="Moderators").user_set.add(alice)
    roles = importlib.import_module("moderation.migrations.0007_roles")
    roles.forwards(django_apps, None)
    assert not Group.objects.filter(name="Moderators").exists()
    for role, name in GROUPS.items():
        held = {
            (p.content_type.app_label, p.content_type.model, p.codename)
            for p in Group.objects.get(name=name).permissions.select_related("content_type")
        }
        assert held == set(ROLE_PERMISSIONS[role]), role
    # alice keeps the powers she had (bans, any length, lifting): a Senior moderator now.
    alice = type(alice).objects.get(pk=alice.pk)
    assert [g.name for g in alice.groups.all()] == ["Senior moderators"]
    assert alice.has_perm("moderation.ban_member") and not alice.has_perm("moderation.roles_member")
    assert not bob.groups.exists()


def test_services_take_actor_and_still_moderator(db, bob):
    mod = make_moderator("mod", "chat")
    mute = services.user_mute(moderator=mod, user=bob, duration=timedelta(hours=1), reason="x")
    assert mute.created_by == mod
    with pytest.raises(TypeError):
        services.user_mute(actor=mod, moderator=mod, user=bob, duration=timedelta(hours=1))
    with pytest.raises(TypeError):
        services.user_mute(mod, bob, timedelta(hours=1), "x")  # type: ignore[misc]


def test_a_chat_moderator_is_told_the_limit(db, bob):
    mod = make_moderator("mod", "chat")
    with pytest.raises(PermissionDenied, match="at most 24 hours"):
        services.user_mute(actor=mod, user=bob, duration=timedelta(hours=25), reason="x")
    with pytest.raises(PermissionDenied, match="may not suspend"):
        services.user_suspend(actor=mod, user=bob, duration=timedelta(hours=1), reason="x")
    game = make_moderator("gm", "game")
    with pytest.raises(PermissionDenied, match="at most 7 days"):
        services.user_suspend(actor=game, user=bob, duration=timedelta(days=8), reason="x")
    with pytest.raises(PermissionDenied):
        services.user_ban(actor=game, user=bob, reason="x")
    assert not Restriction.objects.exists()


def _act(client, url, action, ids, **data):
    return client.post(
        url, {"action": action, "_selected_action": [str(i) for i in ids], "apply": "1", **data}
    )


def test_an_administrator_gives_roles_in_the_admin_and_a_senior_cannot(alice, bob):
    admin_client = verified_client(make_moderator("root", "admin"))
    _act(admin_client, "/admin/moderation/member/", "give_role", [alice.pk], role="chat")
    alice = type(alice).objects.get(pk=alice.pk)
    assert [g.name for g in alice.groups.all()] == ["Chat moderators"] and alice.is_staff
    senior = verified_client(make_moderator("boss", "senior"))
    assert 'value="give_role"' not in senior.get("/admin/moderation/member/").content.decode()
    _act(senior, "/admin/moderation/member/", "give_role", [bob.pk], role="admin")
    assert not bob.groups.exists()
    _act(admin_client, "/admin/moderation/member/", "give_role", [alice.pk], role="none")
    alice = type(alice).objects.get(pk=alice.pk)
    assert not alice.groups.exists() and not alice.is_staff


def test_a_chat_moderator_lifts_their_own_mute_not_another_s(bob, carol):
    cm = make_moderator("cm", "chat")
    boss = make_moderator("boss", "senior")
    own = services.user_mute(actor=cm, user=bob, duration=timedelta(hours=2), reason="x")
    other = services.user_mute(actor=boss, user=carol, duration=timedelta(hours=2), reason="y")
    client = verified_client(cm)
    assert (
        "Lift: muted in chat"
        in client.get(f"/admin/moderation/member/{bob.pk}/change/").content.decode()
    )
    assert (
        "Lift:" not in client.get(f"/admin/moderation/member/{carol.pk}/change/").content.decode()
    )
    _act(client, "/admin/moderation/restriction/", "lift", [own.pk, other.pk], reason="sorry")
    assert Restriction.objects.get(pk=own.pk).lifted is not None
    assert Restriction.objects.get(pk=other.pk).lifted is None
