"""The member page for moderators: reports by and against, restrictions, appeals, private
notes (who, when; never shown to the member), linked accounts, blocks as a count,
reliability and recent games; the hidden statistics page a moderator may read (audited); the
mute button that says "Muted until …"."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client

from accounts.models import Profile
from chat import services as chat
from moderation import services
from moderation.models import AuditEntry, MemberNote
from social import services as social
from tests.conftest import PASSWORD, make_moderator, verified_client


def _sign_in(username: str, address: str) -> None:
    Client().post(
        "/accounts/login/", {"username": username, "password": PASSWORD}, REMOTE_ADDR=address
    )


def test_the_member_page_holds_the_whole_file(three_player_game, alice, bob, carol, charlie):
    senior = make_moderator("boss", "senior")
    table = three_player_game
    said = chat.chat_post(table_id=table.pk, user=bob, text="idiots")
    against = services.report_create(
        reporter=alice, table_id=table.pk, reason="abuse", message_id=said.pk
    )
    services.report_create(reporter=bob, table_id=table.pk, reason="cheating", username="carol")
    mute = services.user_mute(actor=senior, user=bob, duration=timedelta(hours=3), reason="rude")
    services.report_resolve(report_id=against.pk, actor=senior, note="muted")
    services.appeal_file(actor=bob, restriction_id=mute.pk, text="I was provoked")
    social.block_add(user=bob, username="carol")
    social.block_add(user=bob, username="alice")
    social.block_add(user=charlie, username="bob")
    _sign_in("bob", "203.0.113.5")
    _sign_in("charlie", "203.0.113.5")
    client = verified_client(make_moderator("gm", "game"))
    # A note, through the page's own form.
    page = client.get(f"/admin/moderation/member/{bob.pk}/change/")
    assert page.status_code == 200
    client.post(f"/admin/moderation/member/{bob.pk}/notes/add/", {"text": "warned on Discord"})
    html = client.get(f"/admin/moderation/member/{bob.pk}/change/").content.decode()
    file = html.split('id="member-file"')[1]
    against_part = file.split('id="file-reports-against"')[1].split("</section>")[0]
    assert f"#{against.pk}" in against_part and "alice" in against_part and "muted" in against_part
    by_part = file.split('id="file-reports-by"')[1].split("</section>")[0]
    assert "carol" in by_part and "1 filed · 0 resolved" in by_part
    assert "I was provoked" in file.split('id="file-appeals"')[1]
    notes = file.split('id="file-notes"')[1].split("</section>")[0]
    assert "warned on Discord" in notes and "gm" in notes
    assert "Delete this note" not in notes  # a game moderator does not delete notes
    linked = file.split('id="file-linked"')[1].split("</section>")[0]
    assert "charlie" in linked and "same address" in linked
    assert (
        '<span id="file-blocks">2</span>' in file and '<span id="file-blocked-by">1</span>' in file
    )
    assert 'id="file-reliability"' in file
    assert f"table #{table.pk}" in file.split('id="file-standing"')[1]
    assert "restrictions, newest first" in html.lower() and "rude <em>(free text)</em>" in html
    # The member sees none of it: not the note, not the linked account.
    own = Client()
    own.force_login(bob)
    profile = own.get("/accounts/profile/").content.decode()
    assert "warned on Discord" not in profile and "charlie" not in profile
    assert own.get(f"/admin/moderation/member/{bob.pk}/change/").status_code == 302


def test_only_a_senior_deletes_a_note_and_the_log_keeps_it(bob):
    game = make_moderator("gm", "game")
    senior = make_moderator("boss", "senior")
    note = services.note_add(actor=game, member=bob, text="shares an account?")
    refused = verified_client(game).post(
        f"/admin/moderation/member/notes/{note.pk}/delete/", {"reason": "x"}
    )
    assert refused.status_code == 403 and MemberNote.objects.exists()
    page = verified_client(senior).get(f"/admin/moderation/member/{bob.pk}/change/")
    assert "Delete this note" in page.content.decode()
    verified_client(senior).post(
        f"/admin/moderation/member/notes/{note.pk}/delete/", {"reason": "wrong member"}
    )
    assert not MemberNote.objects.exists()
    entry = AuditEntry.objects.get(action="note_delete")
    assert entry.details["text"] == "shares an account?" and entry.actor == senior


def test_a_moderator_reads_a_hidden_statistics_page_and_it_is_audited(alice, bob):
    Profile.objects.update_or_create(user=alice, defaults={"stats_hidden": True})
    stranger = Client()
    stranger.force_login(bob)
    assert stranger.get("/players/alice/").status_code == 403
    mod = make_moderator("mod", "chat")
    client = Client()
    client.force_login(mod)
    page = client.get("/players/alice/")
    assert page.status_code == 200
    assert "you see it as a moderator" in page.content.decode()
    entry = AuditEntry.objects.get(action="stats_view")
    assert entry.actor == mod and entry.target_user == alice
    # A page its owner did not hide is read as anyone reads it: nothing to audit.
    client.get("/players/bob/")
    assert AuditEntry.objects.filter(action="stats_view").count() == 1


def test_the_mute_button_says_muted_until(bob):
    mod = make_moderator("mod", "game")
    client = verified_client(mod)
    url = f"/admin/moderation/member/{bob.pk}/change/"
    assert ">Mute in chat…</button>" in client.get(url).content.decode()
    services.user_mute(actor=mod, user=bob, duration=timedelta(hours=3), reason="rude")
    html = client.get(url).content.decode()
    assert ">Mute in chat…</button>" not in html and ">Muted until " in html
