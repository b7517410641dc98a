"""Recusal: no moderator acts on a report about themselves or about a member they blocked or
befriended, nor restricts such a member, nor decides an appeal of their own decision."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied

from chat import services as chat
from moderation import services
from moderation.models import Report, Restriction
from social import services as social
from tests.conftest import make_moderator


@pytest.fixture
def reports(three_player_game, alice, bob, carol):
    said = chat.chat_post(table_id=three_player_game.pk, user=bob, text="idiots")
    about_bob = services.report_create(
        reporter=alice, table_id=three_player_game.pk, reason="abuse", message_id=said.pk
    )
    about_carol = services.report_create(
        reporter=alice, table_id=three_player_game.pk, reason="cheating", username="carol"
    )
    return about_bob, about_carol


def test_a_report_about_oneself_goes_to_another_moderator(reports, carol):
    _, about_carol = reports
    carol = make_moderator("", "game", user=carol)
    with pytest.raises(PermissionDenied, match="about you"):
        services.report_assign(report_id=about_carol.pk, actor=carol)
    with pytest.raises(PermissionDenied, match="about you"):
        services.report_resolve(report_id=about_carol.pk, actor=carol, note="nothing")
    assert Report.objects.get(pk=about_carol.pk).status == "open"


def test_a_member_one_blocked_or_befriended_goes_to_another_moderator(reports, bob, charlie):
    about_bob, _ = reports
    mod = make_moderator("", "game", user=charlie)
    # Before any block or friendship, charlie may take the case.
    services.report_assign(report_id=about_bob.pk, actor=mod)
    social.block_add(user=mod, username="bob")
    with pytest.raises(PermissionDenied, match="blocked"):
        services.report_resolve(report_id=about_bob.pk, actor=mod, note="x")
    with pytest.raises(PermissionDenied, match="blocked"):
        services.user_mute(actor=mod, user=bob, duration=timedelta(hours=1), reason="x")
    social.block_remove(user=mod, username="bob")
    social.follow_add(user=mod, username="bob")
    services.user_mute(actor=mod, user=bob, duration=timedelta(hours=1), reason="x")  # a fan only
    social.follow_add(user=bob, username="charlie")  # now friends
    with pytest.raises(PermissionDenied, match="friends"):
        services.user_suspend(actor=mod, user=bob, duration=timedelta(days=1), reason="x")
    with pytest.raises(PermissionDenied, match="friends"):
        services.report_resolve(report_id=about_bob.pk, actor=mod, note="x")
    assert Restriction.objects.filter(user=bob).count() == 1


def test_no_senior_decides_an_appeal_of_their_own_decision(bob):
    boss = make_moderator("boss", "senior")
    other = make_moderator("other", "senior")
    mute = services.user_mute(actor=boss, user=bob, duration=timedelta(hours=5), reason="x")
    appeal = services.appeal_file(actor=bob, restriction_id=mute.pk, text="unfair")
    with pytest.raises(PermissionDenied, match="you imposed"):
        services.appeal_decide(actor=boss, appeal_id=appeal.pk, decision="lifted", reason="x")
    services.appeal_decide(actor=other, appeal_id=appeal.pk, decision="upheld", reason="fair")
