"""Reports from the table page's API: a message or a player, into the moderators' queue."""

from __future__ import annotations

import pytest
from django.test import Client

from chat import services as chat
from moderation import services
from moderation.models import AuditEntry, Report
from tests.conftest import make_moderator
from tests.moderation.conftest import error_of


def report(client, table, **body):
    return client.post(f"/api/tables/{table.pk}/reports", body)


def test_report_a_message_keeps_the_move_and_the_chat_excerpt(public_game, alice, bob, api_for):
    chat.chat_post(table_id=public_game.pk, user=alice, text="good luck")
    rude = chat.chat_post(table_id=public_game.pk, user=bob, text="you play like a potato")
    chat.chat_post(table_id=public_game.pk, user=bob, text="said after")
    response = report(api_for(alice), public_game, reason="abuse", note="again", message=rude.pk)
    assert response.status_code == 201 and response.json()["status"] == "open"
    item = Report.objects.get(pk=response.json()["id"])
    assert item.reported_user == bob and item.reporter == alice and item.message == rude
    assert item.table == public_game and item.move_seq == rude.move_seq
    assert [m["text"] for m in item.excerpt] == ["good luck", "you play like a potato"]
    entry = AuditEntry.objects.get(action="report")
    assert entry.actor == alice and entry.target_user == bob and entry.table == public_game


def test_report_a_player(public_game, alice, carol, api_for):
    response = report(api_for(alice), public_game, reason="stalling", user="carol")
    assert response.status_code == 201
    item = Report.objects.get()
    assert item.reported_user == carol and item.message is None
    assert item.move_seq == public_game.move_count


def test_bad_reports_are_refused(public_game, private_game, alice, bob, charlie, api_for):
    spectator_says = chat.chat_post(table_id=public_game.pk, user=charlie, text="psst")
    client = api_for(alice)
    # A message the reporter could not see, a stranger, oneself, a bad reason, both or none.
    assert error_of(report(client, public_game, reason="abuse", message=spectator_says.pk)) == (
        400,
        "bad_report",
    )
    assert error_of(report(client, public_game, reason="abuse", user="charlie")) == (
        400,
        "bad_report",
    )
    assert error_of(report(client, public_game, reason="abuse", user="alice"))[1] == "bad_report"
    assert error_of(report(client, public_game, reason="meh", user="bob"))[1] == "bad_report"
    assert error_of(report(client, public_game, reason="abuse"))[1] == "bad_report"
    assert error_of(report(api_for(charlie), private_game, reason="abuse", user="bob")) == (
        403,
        "not_seated",
    )
    assert Report.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_assign_and_resolve_write_audit_rows(public_game, alice, bob, carol):
    carol = make_moderator("carol", "game", user=carol)
    AuditEntry.objects.all().delete()
    item = services.report_create(
        reporter=alice, table_id=public_game.pk, reason="cheating", username="bob"
    )
    services.report_assign(report_id=item.pk, moderator=carol)
    item.refresh_from_db()
    assert item.status == "assigned" and item.assignee == carol
    with pytest.raises(services.BadReport):
        services.report_resolve(report_id=item.pk, moderator=carol, note=" ")
    services.report_resolve(report_id=item.pk, moderator=carol, note="warned bob")
    item.refresh_from_db()
    assert item.status == "resolved" and item.resolution == "warned bob" and item.resolved
    actions = list(AuditEntry.objects.order_by("id").values_list("action", "actor__username"))
    assert actions == [
        ("report", "alice"),
        ("report_assign", "carol"),
        ("report_resolve", "carol"),
    ]


def test_my_profile_says_what_became_of_my_reports(public_game, alice, bob, carol):
    # A report went into the queue and the reporter never heard of it again.
    def mine(user) -> str:
        client = Client()
        client.force_login(user)
        page = client.get("/accounts/profile/").content.decode()
        return (
            page.split('id="my-reports"')[1].split("</section>")[0] if "my-reports" in page else ""
        )

    assert mine(alice) == ""  # no report, no section
    said = chat.chat_post(table_id=public_game.pk, user=bob, text="potato")
    about_bob = services.report_create(
        reporter=alice, table_id=public_game.pk, reason="abuse", message_id=said.pk
    )
    assert "bob: abusive or hateful" in mine(alice) and "waiting for a moderator" in mine(alice)
    carol = make_moderator("carol", "chat", user=carol)
    services.report_assign(report_id=about_bob.pk, moderator=carol)
    assert "a moderator is on it" in mine(alice)
    services.report_resolve(report_id=about_bob.pk, moderator=carol, note="bob muted for a day")
    shown = mine(alice)
    assert "handled " in shown and f'href="/tables/{public_game.pk}/"' in shown
    assert "muted" not in shown  # the moderator's note is for the staff
    assert mine(bob) == ""  # the reported player sees nothing of it


def test_reports_are_rate_limited_with_retry_after(public_game, alice, api_for, settings):
    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "report": "2/3600"}
    client = api_for(alice)
    for _ in range(2):
        assert report(client, public_game, reason="stalling", user="carol").status_code == 201
    refused = report(client, public_game, reason="stalling", user="carol")
    assert error_of(refused) == (429, "rate_limited")
    assert 3600 <= int(refused["Retry-After"]) <= 3960
    assert Report.objects.count() == 2
