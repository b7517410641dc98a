"""Accounts: sign-up, login and logout, password change and reset, profile, API tokens, axes."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import ApiToken
from accounts.tokens import token_issue, token_user
from moderation.services.tables import table_abort
from stats.models import RoundRecord
from tests.conftest import PASSWORD, make_moderator


def test_sign_up_logs_the_new_user_in(db, django_user_model):
    client = Client()
    form = client.get("/accounts/signup/").content.decode()
    # The address is optional; the form says what it is for, and that no player sees it.
    assert "Optional, never shown to other players: for turn reminders and password" in form
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302 and response.url == "/"
    assert django_user_model.objects.filter(username="dora").exists()
    assert "dora" in client.get("/").content.decode()


def test_sign_up_refuses_a_weak_or_taken_name(alice):
    response = Client().post(
        "/accounts/signup/",
        {"username": "alice", "email": "x@example.com", "password1": "123", "password2": "123"},
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "already exists" in text and "too short" in text


def test_login_and_logout(alice):
    client = Client()
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/accounts/profile/").status_code == 200
    assert client.post("/accounts/logout/").status_code in (200, 302)
    assert client.get("/accounts/profile/").status_code == 302  # back to login


def test_password_guessing_is_locked_out(alice):
    client = Client()
    for _ in range(4):
        response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert response.status_code == 200  # the form again, with an error
    fifth = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert fifth.status_code == 429
    # Now even the right password is refused.
    locked = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    # Another account from the same address is not locked.
    assert client.post("/accounts/login/", {"username": "bob", "password": "x"}).status_code == 200


def test_password_change(alice):
    client = Client()
    client.force_login(alice)
    assert client.get("/accounts/password_change/").status_code == 200
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another long password 7",
            "new_password2": "another long password 7",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another long password 7")


@pytest.mark.django_db(transaction=True)
def test_password_reset_by_email(alice, mailoutbox):
    from accounts.mail import drain

    client = Client()
    response = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    drain()  # sent from a background thread (accounts/mail.py)
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["alice@example.com"]
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a brand new password 9", "new_password2": "a brand new password 9"},
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a brand new password 9")


def test_the_profile_counts_no_round_of_an_aborted_table(alice, bot_game, django_user_model):
    # Round 1 of a table a moderator then aborted: the profile said "0 finished games · 1 round
    # played · out first in 0 · 1 points in all" while its list leaves the table out and the
    # statistics skip aborted tables.
    RoundRecord.objects.create(
        table=bot_game, round_no=1, seat=0, user=alice, ruleset="bga", end_seq=1, score=1, penalty=1
    )
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "1 round played" in page and "1 point in all" in page
    assert "never out first" in page  # not "out first in 0"
    RoundRecord.objects.filter(table=bot_game).update(went_out=True)
    page = client.get("/accounts/profile/").content.decode()
    assert "out first in 1 of them" in page
    mod = make_moderator("mod", "game")
    table_abort(moderator=mod, table_id=bot_game.pk, reason="a test")
    page = client.get("/accounts/profile/").content.decode()
    assert "0 rounds played" in page and "0 points in all" in page


def test_profile_shows_games_and_a_new_token_once(alice, bot_game):
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert f"#{bot_game.pk}" in page and "You have no token yet" in page
    client.post("/accounts/profile/token/")
    page = client.get("/accounts/profile/").content.decode()
    token = re.search(r'<pre id="api-token">(\S+)</pre>', page).group(1)
    assert token_user(token) == alice
    # The user of the token's hand-compiled read is the ORM's, field for field.
    fields = [f.attname for f in type(alice)._meta.concrete_fields]
    found, fresh = token_user(token), type(alice).objects.get(pk=alice.pk)
    assert [getattr(found, f) for f in fields] == [getattr(fresh, f) for f in fields]
    assert found._state.adding is False and found._state.db == fresh._state.db
    again = client.get("/accounts/profile/").content.decode()
    assert token not in again and ApiToken.objects.get(user=alice).prefix in again
    # The token works against the API.
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.get(f"/api/tables/{bot_game.pk}").json()["table"]["my_seat"] == 0


def test_tokens_are_stored_hashed_and_replaced(alice):
    first = token_issue(user=alice)
    second = token_issue(user=alice)
    assert token_user(first) is None and token_user(second) == alice
    stored = ApiToken.objects.get(user=alice)
    assert second not in stored.key_hash and len(stored.key_hash) == 64
    alice.is_active = False
    alice.save()
    assert token_user(second) is None


def test_api_token_command(alice):
    out = StringIO()
    call_command("api_token", "alice", stdout=out)
    assert token_user(out.getvalue().strip()) == alice
    with pytest.raises(CommandError):
        call_command("api_token", "nobody", stdout=StringIO())


def test_reminders_say_where_they_go_and_the_address_changes_with_the_password(alice):
    # Signed up without an address, a player was offered "Email me when it is my turn" with
    # nowhere for the email to go, and no way to give one.
    alice.email = ""
    alice.save()
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "no reminder can reach you" in page and '<details id="email-address" open>' in page

    def change(email, password):
        answer = client.post("/accounts/profile/email/", {"email": email, "password": password})
        assert answer.status_code == 302 and answer["Location"] == "/accounts/profile/"
        alice.refresh_from_db()
        return client.get("/accounts/profile/").content.decode()

    page = change("alice@Example.COM", "not her password")
    assert alice.email == "" and "That is not your password" in page
    page = change("not an address", PASSWORD)
    assert alice.email == "" and "valid email address" in page
    page = change("alice@Example.COM", PASSWORD)
    assert alice.email == "alice@example.com"
    assert "Reminders go to <strong>alice@example.com</strong>" in page
    assert '<details id="email-address">' in page  # folded once there is an address
    page = change("", PASSWORD)
    assert alice.email == "" and "the site will send you no email" in page


def test_the_reminder_checkboxes_read_as_sentences(alice):
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert re.search(
        r'name="email_turn"[^>]*>\s*<label for="id_email_turn">Email me when it is my turn</label>',
        page,
    )
