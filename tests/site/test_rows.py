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


@pytest.mark.parametrize("lock", [False, True])
def test_the_rows_of_a_move_s_read_are_the_instances_from_db_makes(bot_game, lock):
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from accounts.models import Profile
    from games.models import Seat

    human = next(s.user for s in bot_game.seats.all() if s.user is not None)
    Profile.objects.for_user(human)
    with transaction.atomic():
        found = table_with_seats(bot_game.pk, lock=lock)
    assert found is not None
    table, seats = found
    made = [table, table.host, *seats]
    made += [s.user for s in seats if s.user is not None]
    profile = get_user_model()._meta.get_field("profile")
    made += [profile.get_cached_value(s.user, None) for s in seats if s.user is not None]
    made = [obj for obj in made if obj is not None]  # the bots have no profile
    assert {type(obj) for obj in made} == {Table, Seat, get_user_model(), Profile}
    for obj in made:
        model = type(obj)
        fresh = model.objects.get(pk=obj.pk)
        columns = Columns(model, "x")
        assert columns.plain, model  # the fast way is the one these reads take
        again = model.from_db(
            "default", columns.attnames, [getattr(obj, name) for name in columns.attnames]
        )
        fields = {k: v for k, v in obj.__dict__.items() if k != "_state"}
        assert fields == {k: v for k, v in again.__dict__.items() if k != "_state"}
        assert [getattr(obj, n) for n in columns.attnames] == [
            getattr(fresh, n) for n in columns.attnames
        ]
        assert (obj._state.adding, obj._state.db) == (False, "default")
        assert obj == fresh and obj.pk == fresh.pk
    # Instances made this way save, refresh and follow relations as the ORM's do.
    table.refresh_from_db()
    assert table.seats.count() == len(seats)
    seats[0].save(update_fields=["last_seen_version"])


def test_a_model_with_an_init_signal_listener_is_made_by_from_db(bot_game):
    from django.db.models.signals import post_init

    seen = []

    def note(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(note, sender=Table)
    try:
        found = table_with_seats(bot_game.pk, lock=False)
    finally:
        post_init.disconnect(note, sender=Table)
    assert found is not None
    assert seen == [found[0]]
