"""No request answers 500 (issue 14): database errors a retry cures answer 503 ``unavailable``,
bad input answers 4xx, and every API answer is in the error shape, 405 and 413 included."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from games import services
from games.models import Seat, Table
from tests.site.conftest import error_of
from tests.site.test_actions_api import players, whose_turn

TERMINATED = "terminating connection due to administrator command"


def lenient(user: Any = None) -> Client:
    """A client that answers what the server answered instead of raising its exception."""
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("kind", [OperationalError, InterfaceError])
def test_a_dead_database_connection_is_503_unavailable_in_the_api(
    kind, alice, api_for, monkeypatch
):
    def dead(**kwargs: Any) -> Any:
        raise kind(TERMINATED)

    monkeypatch.setattr(services, "table_list_for_user", dead)
    client = api_for(alice)
    client.client.raise_request_exception = False
    response = client.get("/api/tables")
    assert error_of(response) == (503, "unavailable")
    assert response["Retry-After"] == "1"


def test_a_dead_database_connection_is_a_503_page(alice, monkeypatch):
    import games.views as views

    def dead(**kwargs: Any) -> Any:
        raise OperationalError(TERMINATED)

    monkeypatch.setattr(views.services, "lobby_for_user", dead)
    response = lenient(alice).get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert b"Back in a moment" in response.content


def test_a_database_error_in_middleware_is_503_too(alice, monkeypatch):
    """The session is saved after the view (the new token is kept in it for the next page),
    outside what the view's own exception handling sees."""
    from django.contrib.sessions.backends.db import SessionStore

    def dead(self: Any, must_create: bool = False) -> None:
        raise OperationalError(TERMINATED)

    client = lenient(alice)
    monkeypatch.setattr(SessionStore, "save", dead)
    response = client.post("/accounts/profile/token/")
    assert response.status_code == 503, response.content[:200]


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_commit_succeeded_answers_200_when_after_commit_work_fails(
    three_player_game, api_for, monkeypatch
):
    from games import broadcast

    def broken(*args: Any) -> None:
        raise ConnectionError("the channel layer is gone")

    monkeypatch.setattr(broadcast, "table_changed", broken)
    table = three_player_game
    client = api_for(players(table)[whose_turn(table)])
    client.client.raise_request_exception = False
    response = client.act(table.pk, table.version, type="draw", source="stock")
    assert response.status_code == 200, response.content
    table.refresh_from_db()
    assert response.json()["table"]["version"] == table.version


def test_a_body_over_the_limit_is_413_in_the_error_shape(alice, api_for, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = api_for(alice)
    response = client.post("/api/tables", raw='{"seats": 3, "pad": "' + "x" * 2000 + '"}')
    assert error_of(response) == (413, "payload_too_large")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("put", "/api/tables"),
        ("patch", "/api/tables"),
        ("delete", "/api/tables"),
        ("options", "/api/tables"),
        ("head", "/api/tables/1/actions"),
        ("get", "/api/tables/1/actions"),
        ("put", "/api/tables/1/actions"),
        ("get", "/api/tables/join"),
    ],
)
def test_wrong_methods_are_405_in_the_error_shape(method, path, alice, api_for):
    response = getattr(api_for(alice).client, method)(path)
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
    assert "Allow" in response
    if method != "head":
        assert error_of(response) == (405, "method_not_allowed")


@pytest.mark.parametrize("table_id", [2**63, 2**63 + 5, 10**30])
def test_ids_beyond_64_bits_are_404(table_id, alice, api_for):
    client = api_for(alice)
    assert error_of(client.get(f"/api/tables/{table_id}")) == (404, "table_not_found")
    assert error_of(client.post(f"/api/tables/{table_id}/join")) == (404, "table_not_found")
    assert lenient(alice).get(f"/tables/{table_id}/").status_code == 404


def test_nul_bytes_in_invite_codes_and_paths_are_404(alice, bob, api_for):
    table = services.table_create(host=alice, seats=3, public=False)
    response = api_for(bob).post("/api/tables/join", {"invite_code": table.invite_code + "\x00"})
    assert error_of(response) == (404, "invite_not_found")
    assert lenient(bob).get("/join/%00/").status_code == 404
    assert lenient(bob).get(f"/join/{table.invite_code}%00x/").status_code == 404
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_sign_up_race_for_one_username_is_a_form_error(db, django_user_model, monkeypatch):
    """Two sign-ups of one name: both pass the form's check, the second insert must not 500."""
    from accounts import views

    django_user_model.objects.create_user("dave", "d@example.com", "x")
    # The other request's insert lands between this one's check and its save.
    monkeypatch.setattr(
        views.SignUpForm, "clean_username", lambda self: self.cleaned_data["username"]
    )
    monkeypatch.setattr(views.SignUpForm, "validate_unique", lambda self: None)
    response = lenient().post(
        "/accounts/signup/",
        {
            "username": "dave",
            "email": "dave2@example.com",
            "password1": "a long enough password 42",
            "password2": "a long enough password 42",
        },
    )
    assert response.status_code == 400
    assert b"already exists" in response.content
    assert django_user_model.objects.filter(username="dave").count() == 1


def test_an_expelled_player_of_a_private_table_at_a_stale_version_gets_403(
    alice, bob, carol, api_for
):
    table = services.table_create(host=alice, seats=3, public=False)
    services.table_join(user=bob, invite_code=table.invite_code)
    services.table_join(user=carol, invite_code=table.invite_code)
    services.table_start(user=alice, table_id=table.pk, seed="expelled")
    table.refresh_from_db()
    Seat.objects.filter(table=table, user=bob).update(expelled=True)
    response = api_for(bob).act(table.pk, table.version - 1, type="draw", source="stock")
    assert error_of(response) == (403, "expelled")
    assert "view" not in response.json() and "table" not in response.json()


def test_a_stale_payload_goes_only_to_who_may_see_the_table(alice, bob, carol, api_for):
    """Defence in depth: the 409 handler checks access itself."""
    table = services.table_create(host=alice, seats=3, public=False)
    services.table_join(user=bob, invite_code=table.invite_code)
    services.table_join(user=carol, invite_code=table.invite_code)
    services.table_start(user=alice, table_id=table.pk, seed="stale")
    Seat.objects.filter(table=table, user=bob).update(expelled=True)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    table.refresh_from_db()
    response = api_for(bob).act(table.pk, table.version - 1, type="draw", source="stock")
    status, code = error_of(response)
    assert status == 403 and "view" not in response.json()
