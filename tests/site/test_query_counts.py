"""Reading tables costs a fixed number of queries, however many tables, seats and players: one
selector (games/services/selectors.py) reads each table with its host, seats, users and their
profiles, for the lobby, the home page, the API payload, the socket and the move."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from games import services
from games.engine.bots import choose_action
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def make_tables(django_user_model: Any, alice: Any, count: int, prefix: str) -> list[Any]:
    """``count`` tables of alice with two more players each, every other one started (with a
    bot), and every other player with a profile (one on vacation: the clocks read it)."""
    tables = []
    for i in range(count):
        table = services.table_create(host=alice, seats=4, public=True)
        for j in range(2):
            user = django_user_model.objects.create_user(f"{prefix}{i}x{j}", password=PASSWORD)
            if j == 0:
                Profile.objects.for_user(user)
            services.table_join(user=user, table_id=table.pk)
        if i % 2:
            services.table_fill_with_bots(user=alice, table_id=table.pk)
            table = services.table_start(user=alice, table_id=table.pk, seed=f"q{i}")
        tables.append(table)
    return tables


def queries(fetch: Any) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = fetch()
    assert response.status_code == 200, response.content[:300]
    return len(captured), [q["sql"] for q in captured.captured_queries]


def test_the_lobby_api_reads_any_number_of_tables_in_a_fixed_number_of_queries(
    alice, django_user_model, api_for
):
    api = api_for(alice)
    make_tables(django_user_model, alice, 2, "a")
    few, _ = queries(lambda: api.get("/api/tables"))
    make_tables(django_user_model, alice, 10, "b")
    many, sql = queries(lambda: api.get("/api/tables"))
    assert len(api.get("/api/tables").json()["tables"]) == 12
    # The token's user, the tables with their hosts, the seats with users and profiles.
    assert many == few == 3, "\n".join(sql)
    assert not [q for q in sql if "accounts_profile" in q and "JOIN" not in q.upper()]


def test_the_home_page_reads_any_number_of_tables_in_a_fixed_number_of_queries(
    alice, django_user_model
):
    client = Client()
    client.force_login(alice)
    visitor = Client()
    make_tables(django_user_model, alice, 2, "a")
    few, _ = queries(lambda: client.get("/"))
    few_visitor, _ = queries(lambda: visitor.get("/"))
    make_tables(django_user_model, alice, 8, "b")
    many, sql = queries(lambda: client.get("/"))
    many_visitor, sql_visitor = queries(lambda: visitor.get("/"))
    assert many == few, "\n".join(sql)
    assert many_visitor == few_visitor, "\n".join(sql_visitor)


def test_a_table_its_payload_and_a_move_read_the_table_once(alice, django_user_model, api_for):
    table = make_tables(django_user_model, alice, 2, "a")[1]
    api = api_for(alice)
    count, sql = queries(lambda: api.get(f"/api/tables/{table.pk}"))
    # Reads: the token's user, then the table with its host, seats, users and profiles (and
    # one write: the version this seat has seen).
    reads = [q for q in sql if q.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 2 and count <= 3, "\n".join(sql)
    table.refresh_from_db()
    active = table.state["active"]
    player = table.seats.get(position=active).user
    action = choose_action(table.state, active)
    mover = api_for(player)
    count, sql = queries(lambda: mover.act(table.pk, table.version, **action))
    # The token's user, the lock, the table with its seats; the writes (one statement on
    # PostgreSQL); no second read of the seats for the payload.
    assert count <= 8, "\n".join(sql)
    assert sum('FROM "games_seat"' in q or "FROM games_seat" in q for q in sql) <= 1, sql
