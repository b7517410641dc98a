"""Canned reasons (presets): edited by seniors; a moderator picks one (the member receives its
message by email and on their next sign-in page) and may add a note; free text stays possible
and is marked; the grid suggests a longer mute for a second one in 30 days."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.mail import drain
from moderation import services
from moderation.models import CannedReason, Restriction
from moderation.selectors import suggestions
from tests.conftest import make_moderator, verified_client


def _act(client, action, ids, **data):
    return client.post(
        "/admin/moderation/member/",
        {"action": action, "_selected_action": [str(i) for i in ids], "apply": "1", **data},
    )


@pytest.mark.django_db(transaction=True)
def test_a_moderator_picks_a_canned_reason_and_the_member_gets_its_message(
    bob, mailoutbox, presets
):
    mod = make_moderator("mod", "chat")
    preset = presets["Insults in chat"]
    client = verified_client(mod)
    form = client.get(
        "/admin/moderation/member/",
    )
    assert form.status_code == 200
    page = client.post(
        "/admin/moderation/member/",
        {"action": "mute", "_selected_action": [str(bob.pk)]},
    ).content.decode()
    # The form lists the canned reasons with their suggested duration for bob.
    assert "Insults in chat" in page and "<strong>2 h</strong>" in page
    _act(client, "mute", [bob.pk], preset=str(preset.pk), note="third time", days="0", hours="2")
    mute = Restriction.objects.get(user=bob)
    assert mute.preset == preset and mute.message == preset.message and mute.note == "third time"
    assert mute.reason == preset.title
    drain()
    assert mailoutbox and mailoutbox[-1].to == [bob.email]
    assert preset.message in mailoutbox[-1].body and "third time" not in mailoutbox[-1].body
    # The second mute within 30 days is suggested three times as long.
    second = client.post(
        "/admin/moderation/member/", {"action": "mute", "_selected_action": [str(bob.pk)]}
    ).content.decode()
    assert "<strong>6 h</strong>" in second and "1 earlier in the last 30 days" in second


def test_free_text_is_still_possible_and_marked(bob, presets):
    mod = make_moderator("mod", "game")
    client = verified_client(mod)
    _act(client, "mute", [bob.pk], reason="spoilers of a film", days="0", hours="1")
    mute = Restriction.objects.get(user=bob)
    assert mute.preset is None and mute.message == "spoilers of a film"
    page = client.get(f"/admin/moderation/member/{bob.pk}/change/").content.decode()
    assert "spoilers of a film <em>(free text)</em>" in page
    # Neither a canned reason nor a text: refused, nothing done.
    refused = _act(client, "mute", [bob.pk], days="0", hours="1")
    assert "pick a canned reason or write one" in refused.content.decode()
    assert Restriction.objects.count() == 1


def test_the_grid_suggests_longer_after_earlier_restrictions(bob, carol, presets):
    mod = make_moderator("mod", "senior")
    services.user_mute(actor=mod, user=bob, duration=timedelta(hours=1), reason="x")
    services.user_mute(actor=mod, user=bob, duration=timedelta(hours=1), reason="y")
    old = services.user_mute(actor=mod, user=carol, duration=timedelta(hours=1), reason="z")
    Restriction.objects.filter(pk=old.pk).update(
        created=old.created - timedelta(days=31)
    )  # outside the 30 days
    spam = presets["Spam in chat"]  # 1 h the first time
    found = {
        s.member.username: s.hours for s in suggestions([bob, carol], "mute") if s.preset == spam
    }
    assert found == {"bob": 9, "carol": 1}


def test_only_seniors_edit_the_canned_reasons(db):
    game = verified_client(make_moderator("gm", "game"))
    assert game.get("/admin/moderation/cannedreason/").status_code == 200  # read
    assert game.get("/admin/moderation/cannedreason/add/").status_code == 403
    senior = verified_client(make_moderator("boss", "senior"))
    made = senior.post(
        "/admin/moderation/cannedreason/add/",
        {
            "title": "Hate speech",
            "kind": "ban",
            "message": "Hate has no place here.",
            "suggested_hours": "",
            "active": "on",
        },
    )
    assert made.status_code == 302 and CannedReason.objects.filter(title="Hate speech").exists()
