"""The server-rendered pages, the admin and the API documentation."""

from __future__ import annotations

from django.test import Client

from games.models import Seat, Table
from tests.conftest import signed_in_client


def test_home_lists_open_tables(alice, bob):
    client = signed_in_client(alice)
    response = client.post(
        "/tables/new/",
        {
            "ruleset": "bga",
            "seats": 4,
            "turn_seconds": 3600,
            "window_seconds": 120,
            "strikes": 3,
            "public": "on",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    assert table.options["seats"] == 4 and table.options["window_seconds"] == 120 and table.public
    anonymous = Client().get("/").content.decode()
    assert f"/tables/{table.pk}/" in anonymous and "Log in" in anonymous
    bob_home = signed_in_client(bob).get("/").content.decode()
    assert f"/tables/{table.pk}/join/" in bob_home and 'id="new-table"' in bob_home


def test_create_form_refuses_bad_input(alice):
    response = signed_in_client(alice).post("/tables/new/", {"ruleset": "bga", "seats": 12})
    assert response.status_code == 400
    assert not Table.objects.exists()
    assert Client().post("/tables/new/", {"seats": 4}).status_code == 302  # to the login page


def test_table_life_through_the_pages(alice, bob, charlie):
    alice_client, bob_client = signed_in_client(alice), signed_in_client(bob)
    alice_client.post(
        "/tables/new/",
        {"ruleset": "bga", "seats": 3, "turn_seconds": 3600, "window_seconds": 120, "strikes": 3},
    )
    table = Table.objects.get()
    page = alice_client.get(f"/tables/{table.pk}/").content.decode()
    assert f"/join/{table.invite_code}/" in page and "Fill empty seats with bots" in page
    # Private (the box was left unticked): charlie gets a refusal page, bob uses the link.
    assert signed_in_client(charlie).get(f"/tables/{table.pk}/").status_code == 403
    assert "Take a seat" in bob_client.get(f"/join/{table.invite_code}/").content.decode()
    assert bob_client.get("/join/nonsense/").status_code == 404
    bob_client.post("/tables/join/", {"invite_code": table.invite_code})
    assert Seat.objects.filter(table=table, user=bob).exists()
    # Only the host may fill and start; bob is told so.
    response = bob_client.post(f"/tables/{table.pk}/bots/", follow=True)
    assert "only the host" in response.content.decode()
    alice_client.post(f"/tables/{table.pk}/bots/")
    alice_client.post(f"/tables/{table.pk}/start/")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING

    page = alice_client.get(f"/tables/{table.pk}/").content.decode()
    for card in table.state["hands"][0]:
        assert f'data-card="{card}"' in page
    bob_page = bob_client.get(f"/tables/{table.pk}/").content.decode()
    assert not [card for card in table.state["hands"][0] if f'data-card="{card}"' in bob_page]
    assert "Round 1 of 7" in bob_page


def test_leave_through_the_page(alice):
    client = signed_in_client(alice)
    client.post(
        "/tables/new/",
        {
            "ruleset": "bga",
            "seats": 3,
            "turn_seconds": 3600,
            "window_seconds": 120,
            "strikes": 3,
            "public": "on",
        },
    )
    table = Table.objects.get()
    response = client.post(f"/tables/{table.pk}/leave/", follow=True)
    assert "the table is closed" in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED


def test_spectator_page_of_a_public_game(bot_game, charlie):
    page = signed_in_client(charlie).get(f"/tables/{bot_game.pk}/").content.decode()
    assert "Your hand" not in page and "Round 1 of 7" in page
    assert signed_in_client(charlie).get("/tables/999999/").status_code == 404


def test_admin_lists_with_search_and_filters(bot_game, alice, admin_client):
    from games import services
    from games.engine.bots import choose_action

    services.table_submit_action(
        table_id=bot_game.pk,
        user=alice,
        action=choose_action(bot_game.state, 0),
        expect_version=bot_game.version,
    )
    for path in [
        "/admin/games/table/",
        "/admin/games/table/?q=alice",
        "/admin/games/table/?status__exact=playing&ruleset__exact=bga",
        f"/admin/games/table/{bot_game.pk}/change/",
        "/admin/games/seat/?is_bot__exact=1",
        "/admin/games/move/",
        f"/admin/games/move/?q={bot_game.pk}&by_bot__exact=1",
        "/admin/stats/roundrecord/?went_out__exact=1",
        "/admin/accounts/apitoken/",
    ]:
        response = admin_client.get(path)
        assert response.status_code == 200, path
    moves = admin_client.get("/admin/games/move/").content.decode()
    assert "draw" in moves or "mayi_meld" in moves


def test_openapi_schema_and_docs(db):
    schema = Client().get("/api/openapi.json").json()
    assert "/api/tables/{table_id}/actions" in schema["paths"]
    assert "bench" not in str(schema["paths"])
    assert Client().get("/api/docs").status_code == 200


def test_an_address_with_no_page_answers_the_site_s_own_404(alice):
    page = signed_in_client(alice).get("/no-such-page/")
    text = page.content.decode()
    assert page.status_code == 404
    # The site's page, with its navigation and the player still signed in (Django's bare "Not
    # Found" had neither).
    assert "<h1>Not here</h1>" in text and "Leaderboard" in text and "alice" in text
    assert 'href="/"' in text


def test_a_form_from_a_page_gone_out_of_date_says_so_and_changes_nothing(alice):
    # A lobby opened before logging in again in another tab sends the old CSRF token.
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.get("/").status_code == 200  # the CSRF cookie
    page = client.post("/tables/new/", {"seats": 4, "csrfmiddlewaretoken": "x" * 64})
    text = page.content.decode()
    assert page.status_code == 403
    assert "This page was out of date" in text and "reload the page" in text
    assert "alice" in text and "cookies" not in text
    assert not Table.objects.exists()
    # No cookie at all: the page says what to allow.
    fresh = Client(enforce_csrf_checks=True)
    fresh.force_login(alice)
    text = fresh.post("/tables/new/", {"seats": 4}).content.decode()
    assert "This page was out of date" in text and "cookies" in text
