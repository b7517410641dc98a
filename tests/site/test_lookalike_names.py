"""Sign-up refuses a name that looks like an existing player's (issue 30: ``h_аlice`` with a
Cyrillic а was accepted beside ``h_alice``)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import NameSkeleton
from accounts.names import lookalike_of, skeleton
from privacy.services import account_delete

backfill = importlib.import_module("accounts.migrations.0007_name_skeleton").backfill

PASSWORD = "a long enough password 42"


def sign_up(name: str) -> tuple[int, str]:
    response = Client().post(
        "/accounts/signup/",
        {"username": name, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    return response.status_code, response.content.decode()


@pytest.mark.parametrize(
    "lookalike",
    [
        "h_\u0430lice",  # Cyrillic а
        "h_alic\u0435",  # Cyrillic е
        "h_\u0251lice",  # Latin alpha
        "h_aIice",  # capital i for l
        "h_a1ice",  # one for l
        "H_ALICE",  # case
        "\uff48_alice",  # fullwidth h (NFKC)
        "h_\u03b1lice",  # Greek alpha
    ],
)
def test_a_name_that_looks_like_an_existing_one_is_refused(db, lookalike):
    User.objects.create_user("h_alice", "", PASSWORD)
    status, page = sign_up(lookalike)
    assert status == 400, page[:300]
    assert "looks too much like the player" in page or "already exists" in page
    assert User.objects.count() == 1


def test_different_names_are_welcome(db):
    User.objects.create_user("h_alice", "", PASSWORD)
    assert sign_up("h_alicia")[0] == 302
    assert sign_up("bob_2")[0] == 302
    assert User.objects.count() == 3


def test_deleted_account_names_are_the_sites_own(db):
    status, page = sign_up("deleted-7")
    assert status == 400 and "the site" in page


def test_skeletons():
    assert skeleton("h_\u0430lice") == skeleton("h_alice")
    assert skeleton("modern") == skeleton("modem")  # rn and m
    assert skeleton("kim") != skeleton("klm")


def test_lookalike_of_names_the_other_player(db):
    User.objects.create_user("paypal", "", PASSWORD)
    assert lookalike_of("p\u0430yp\u0430l") == "paypal"
    assert lookalike_of("paypal") is None  # the same name is the uniqueness check's business


def test_the_skeleton_is_stored_and_follows_a_rename_and_a_deletion(db):
    user = User.objects.create_user("h_alice", "", PASSWORD)
    assert NameSkeleton.objects.get(user=user).skeleton == skeleton("h_alice")
    user.username = "paypal"
    user.save()
    assert lookalike_of("h_\u0430lice") is None
    assert lookalike_of("p\u0430yp\u0430l") == "paypal"
    user.save(update_fields=["last_login"])  # a sign-in writes nothing more
    user.delete()
    assert lookalike_of("p\u0430yp\u0430l") is None and not NameSkeleton.objects.exists()


def test_a_deleted_accounts_old_name_is_free_again(db):
    user = User.objects.create_user("h_alice", "", PASSWORD)
    account_delete(user=user, password=PASSWORD)
    assert User.objects.get(pk=user.pk).username == f"deleted-{user.pk}"
    assert lookalike_of("h_\u0430lice") is None
    assert sign_up("h_\u0430lice")[0] == 302


def test_the_lookup_is_one_indexed_query_whatever_the_number_of_players(
    db, django_assert_max_num_queries
):
    User.objects.bulk_create(User(username=f"player_{n}") for n in range(300))
    User.objects.create_user("h_alice", "", PASSWORD)
    with django_assert_max_num_queries(1) as captured:
        assert lookalike_of("h_\u0430lice") == "h_alice"
    assert '"skeleton" =' in captured.captured_queries[0]["sql"]
    assert NameSkeleton._meta.get_field("skeleton").db_index


def test_the_migration_back_fills_every_existing_user(db):
    # Users made before the skeletons existed (no post_save: bulk_create) get theirs.
    User.objects.bulk_create([User(username="h_alice"), User(username="bob")])
    assert not NameSkeleton.objects.exists()
    backfill(django_apps, None)
    assert sorted(NameSkeleton.objects.values_list("skeleton", flat=True)) == sorted(
        [skeleton("h_alice"), skeleton("bob")]
    )
    assert lookalike_of("h_\u0430lice") == "h_alice"
