"""The hand-compiled reads (mayi_site/rows.py ``Columns``) make the instances the ORM makes:
the JSON columns decoded by orjson are the standard library's objects, and what orjson cannot
read goes to the field's own decoder."""

from __future__ import annotations

import json

import pytest

from games.models import Move, Table
from games.services.rows import table_with_seats
from mayi_site.rows import Columns

pytestmark = pytest.mark.django_db


def test_a_table_read_by_hand_equals_the_orm_s_field_for_field(bot_game):
    bot_game.options = {**bot_game.options, "huge": 2**70, "text": "\ud83c\udca1 é"}
    bot_game.save(update_fields=["options"])
    found = table_with_seats(bot_game.pk, lock=False)
    assert found is not None
    table, seats = found
    fresh = Table.objects.get(pk=bot_game.pk)
    fields = [f.attname for f in Table._meta.concrete_fields]
    assert [getattr(table, f) for f in fields] == [getattr(fresh, f) for f in fields]
    assert table.options["huge"] == 2**70  # past orjson's 64 bits: the field's own decoder
    assert table.state == json.loads(json.dumps(fresh.state))
    assert [s.pk for s in seats] == [s.pk for s in fresh.seats.order_by("position")]


def test_a_move_s_json_columns_read_by_hand(bot_game, alice):
    from django.db import connection

    from games import engine, services

    for _ in range(3):
        table = Table.objects.get(pk=bot_game.pk)
        action = engine.choose_action(table.state, 0)
        services.table_submit_action(
            table_id=table.pk, user=alice, action=action, expect_version=table.version
        )

    columns = Columns(Move, "m")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns.sql} FROM {Move._meta.db_table} m WHERE m.table_id = %s",
            [bot_game.pk],
        )
        moves = [columns.load(row, 0) for row in cursor.fetchall()]
    by_pk = {m.pk: m for m in Move.objects.filter(table=bot_game)}
    assert moves and all(m.events == by_pk[m.pk].events for m in moves)
    assert all(m.action == by_pk[m.pk].action for m in moves)
