"""Appeals: one per restriction, filed through the API, the profile or the sign-in refusal
page; seen only by seniors; never decided by the moderator who imposed the restriction; the
decision and its reason reach the member (email, profile, sign-in page); each step audited."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone

from accounts.mail import drain
from moderation import services
from moderation.models import Appeal, AuditEntry, Restriction
from tests.conftest import PASSWORD, make_moderator, verified_client


@pytest.fixture
def boss(db):
    return make_moderator("boss", "senior")


@pytest.fixture
def judge(db):
    return make_moderator("judge", "senior")


def test_post_api_appeals_once_per_restriction(bob, carol, boss, api_for):
    mute = services.user_mute(actor=boss, user=bob, duration=timedelta(hours=3), reason="rude")
    first = api_for(bob).post("/api/appeals", {"restriction": mute.pk, "text": "I was quoting"})
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["restriction"] == mute.pk and body["status"] == "pending"
    assert Appeal.objects.get(pk=body["id"]).member == bob
    again = api_for(bob).post("/api/appeals", {"restriction": mute.pk, "text": "please"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "appeal_exists"
    # Another member's restriction is not theirs to appeal; an empty or too long text is refused.
    other = services.user_mute(actor=boss, user=carol, duration=timedelta(hours=3), reason="x")
    stranger = api_for(bob).post("/api/appeals", {"restriction": other.pk, "text": "hi"})
    assert stranger.status_code == 404
    assert stranger.json()["error"]["code"] == "restriction_not_found"
    empty = api_for(carol).post("/api/appeals", {"restriction": other.pk, "text": "  "})
    assert empty.status_code == 400 and empty.json()["error"]["code"] == "bad_appeal"
    long = api_for(carol).post("/api/appeals", {"restriction": other.pk, "text": "x" * 2001})
    assert long.status_code == 400
    assert Appeal.objects.count() == 1
    assert AuditEntry.objects.filter(action="appeal_file", target_user=bob).count() == 1


def _sign_in_page(username: str) -> str:
    page = Client().post("/accounts/login/", {"username": username, "password": PASSWORD})
    return page.content.decode()


def test_an_appeal_s_whole_path(
    bob, boss, judge, django_user_model, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        suspension = services.user_suspend(
            actor=boss, user=bob, duration=timedelta(days=5), reason="stalled three games"
        )
    drain()
    assert mailoutbox[-1].to == [bob.email] and "stalled three games" in mailoutbox[-1].body
    # bob cannot sign in: the refusal page says why and offers the appeal form (with a token).
    html = _sign_in_page("bob")
    assert "Your account is suspended until" in html and "stalled three games" in html
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    sent = Client().post(
        "/accounts/appeal/",
        {"restriction": suspension.pk, "token": token, "text": "my connection dropped"},
    )
    assert sent.status_code == 200 and "Your appeal was sent" in sent.content.decode()
    appeal = Appeal.objects.get()
    assert appeal.member == bob and appeal.text == "my connection dropped"
    # A forged or foreign token files nothing.
    forged = Client().post(
        "/accounts/appeal/", {"restriction": suspension.pk, "token": "x", "text": "again"}
    )
    assert forged.status_code == 400 and Appeal.objects.count() == 1
    # Seen only by seniors: a game moderator's admin has no appeals.
    game = make_moderator("gm", "game")
    assert verified_client(game).get("/admin/moderation/appeal/").status_code == 403
    queue = verified_client(judge).get("/admin/moderation/appeal/")
    assert queue.status_code == 200 and "bob" in queue.content.decode()
    # The appeal's own page offers the decision as a button while it waits.
    page = f"/admin/moderation/appeal/{appeal.pk}/change/"
    buttons = verified_client(judge).get(page).context["page_actions"]
    assert [(b["action"], b["pk"], b["label"]) for b in buttons] == [
        ("decide", appeal.pk, "Decide…")
    ]
    # Never decided by the moderator who imposed it.
    with pytest.raises(PermissionDenied):
        services.appeal_decide(actor=boss, appeal_id=appeal.pk, decision="lifted", reason="ok")
    until = timezone.now() + timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.appeal_decide(
            actor=judge,
            appeal_id=appeal.pk,
            decision="shortened",
            reason="a first time: one day is enough",
            until=until,
        )
    drain()
    suspension.refresh_from_db()
    assert abs((suspension.until - until).total_seconds()) < 1
    assert "shortened" in mailoutbox[-1].subject
    assert "one day is enough" in mailoutbox[-1].body
    # The sign-in page tells bob the decision, and offers no second appeal.
    html = _sign_in_page("bob")
    assert "shortened the restriction" in html and "one day is enough" in html
    assert 'name="token"' not in html
    assert verified_client(judge).get(page).context["page_actions"] == []
    with pytest.raises(services.AppealDecided):
        services.appeal_decide(actor=judge, appeal_id=appeal.pk, decision="lifted", reason="x")
    steps = list(
        AuditEntry.objects.filter(target_user=bob).order_by("id").values_list("action", flat=True)
    )
    assert steps == ["suspend", "appeal_file", "appeal_decide"]


def test_a_lifted_appeal_lets_the_member_in_and_the_profile_says_so(bob, boss, judge):
    ban = services.user_ban(actor=boss, user=bob, reason="insults")
    appeal = services.appeal_file(actor=bob, restriction_id=ban.pk, text="it was my brother")
    services.appeal_decide(
        actor=judge, appeal_id=appeal.pk, decision="lifted", reason="we believe you"
    )
    bob.refresh_from_db()
    assert bob.is_active
    assert Restriction.objects.get(pk=ban.pk).lifted is not None
    client = Client()
    client.force_login(bob)
    page = client.get("/accounts/profile/").content.decode()
    assert "lifted the restriction" in page and "we believe you" in page


def test_a_muted_member_appeals_from_the_profile(bob, boss):
    services.user_mute(actor=boss, user=bob, duration=timedelta(hours=5), reason="spam")
    client = Client()
    client.force_login(bob)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="my-restrictions"' in page and "Send my appeal" in page
    mute = Restriction.objects.get()
    sent = client.post("/accounts/appeal/", {"restriction": mute.pk, "text": "sorry"})
    assert sent.status_code == 200 and Appeal.objects.filter(restriction=mute).exists()
    assert (
        "Your appeal waits for a senior moderator"
        in client.get("/accounts/profile/").content.decode()
    )
    again = client.post("/accounts/appeal/", {"restriction": mute.pk, "text": "please"})
    assert again.status_code == 409 and Appeal.objects.count() == 1


def test_nobody_decides_an_appeal_about_themselves(boss, judge):
    # A senior restricted by another senior cannot decide their own appeal either.
    mute = services.user_mute(actor=boss, user=judge, duration=timedelta(hours=1), reason="x")
    appeal = services.appeal_file(actor=judge, restriction_id=mute.pk, text="unfair")
    with pytest.raises(PermissionDenied):
        services.appeal_decide(actor=judge, appeal_id=appeal.pk, decision="lifted", reason="x")
    assert Appeal.objects.get().status == "pending"


def test_a_suspended_member_appeals_with_their_api_token_and_nothing_else(bob, boss, api_for):
    client = api_for(bob)  # the token made before the suspension
    ban = services.user_ban(actor=boss, user=bob, reason="insults")
    # Every other endpoint refuses the token of a banned member...
    assert client.get("/api/tables").status_code == 401
    # ... but they may appeal with it, once.
    sent = client.post("/api/appeals", {"restriction": ban.pk, "text": "it was my brother"})
    assert sent.status_code == 201, sent.content
    again = client.post("/api/appeals", {"restriction": ban.pk, "text": "really"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "appeal_exists"
    nobody = Client().post(
        "/api/appeals", {"restriction": ban.pk, "text": "x"}, content_type="application/json"
    )
    assert nobody.status_code == 401


def test_a_browser_appeal_needs_the_csrf_token(bob, boss):
    mute = services.user_mute(actor=boss, user=bob, duration=timedelta(hours=1), reason="x")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(bob)
    body = {"restriction": mute.pk, "text": "sorry"}
    refused = browser.post("/api/appeals", body, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf_failed"
    browser.get("/accounts/profile/")
    token = browser.cookies["csrftoken"].value
    sent = browser.post(
        "/api/appeals", body, content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert sent.status_code == 201


def test_the_services_take_the_rows_too(bob, boss, judge):
    mute = services.user_mute(actor=boss, user=bob, duration=timedelta(hours=5), reason="x")
    appeal = services.appeal_file(actor=bob, restriction=mute, text="sorry")
    services.appeal_decide(
        actor=judge, appeal=appeal, decision="shortened", reason="ok", duration=timedelta(hours=1)
    )
    mute.refresh_from_db()
    assert mute.until < timezone.now() + timedelta(hours=1, minutes=1)
    with pytest.raises(TypeError):
        services.appeal_file(actor=bob, text="no restriction named")
