"""Passwords (issue 26 point 16): Argon2id at OWASP's parameters first, never weaker; every
password stored with PBKDF2 before still signs in and is stored again with Argon2; a sign-up
or a login sends no email in its request. These tests use the site's real hashers (the suite's
MD5 is for speed elsewhere)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hasher
from django.core import mail
from django.test import Client, override_settings

from mayi_site import settings as site_settings
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

REAL = override_settings(PASSWORD_HASHERS=site_settings.PASSWORD_HASHERS)


@REAL
def test_argon2id_at_owasp_s_parameters_comes_first_and_pbkdf2_stays():
    first = get_hasher()
    assert first.algorithm == "argon2"
    # OWASP's minimum for Argon2id (Password Storage Cheat Sheet): never less.
    assert first.memory_cost >= 19456 and first.time_cost >= 2 and first.parallelism >= 1
    assert "django.contrib.auth.hashers.PBKDF2PasswordHasher" in site_settings.PASSWORD_HASHERS
    stored = first.encode(PASSWORD, first.salt())
    assert stored.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert first.verify(PASSWORD, stored) and not first.verify("wrong", stored)


class FastPBKDF2(PBKDF2PasswordHasher):
    """PBKDF2 as stored before, at fewer rounds so the test does not take seconds (the
    rounds are in the stored hash: the site's PBKDF2 hasher verifies it all the same)."""

    iterations = 1000


@REAL
def test_a_password_stored_with_pbkdf2_signs_in_and_is_stored_again_with_argon2():
    user = get_user_model().objects.create_user("olduser", "old@example.com")
    user.password = FastPBKDF2().encode(PASSWORD, FastPBKDF2().salt())
    user.save(update_fields=["password"])
    assert user.password.startswith("pbkdf2_sha256$1000$")
    response = Client().post(
        "/accounts/login/", {"username": "olduser", "password": PASSWORD}, secure=True
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$")
    # And again with the new hash.
    assert (
        Client()
        .post("/accounts/login/", {"username": "olduser", "password": PASSWORD}, secure=True)
        .status_code
        == 302
    )


@REAL
def test_sign_up_stores_argon2_and_sends_no_email_in_the_request():
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        secure=True,
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="newcomer")
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert mail.outbox == []
