"""Two clients act at once at the same version: exactly one action applies (PostgreSQL)."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.db import connections

from games import engine, services
from games.engine.bots import choose_action
from games.models import Move, Seat, Table
from tests.conftest import ApiClient

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")),
        reason="needs DATABASE_URL pointing at PostgreSQL (row locks)",
    ),
    pytest.mark.django_db(transaction=True),
]


def race(requests: list[Any]) -> list[Any]:
    """Run the callables at the same instant, each in its own thread and connection."""
    barrier = threading.Barrier(len(requests))
    results: list[Any] = [None] * len(requests)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = requests[i]()
        except Exception as exc:  # surfaced by the assertions below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.fixture(autouse=True)
def slow_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen the gap between reading a table and writing it back, so that without the row lock
    the two requests would both read the same version (this test fails without it)."""
    import time

    real = engine.apply

    def slow_apply(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.05)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "apply", slow_apply)


def started_table(alice: Any, bob: Any, carol: Any) -> Table:
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="race")
    table.refresh_from_db()
    return table


@pytest.mark.parametrize("attempt", range(3))
def test_the_same_action_twice_at_once_applies_once(alice, bob, carol, api_for, attempt):
    table = started_table(alice, bob, carol)
    seat = engine.seats_to_act(table.state)[0]
    user = Seat.objects.get(table=table, position=seat).user
    action = choose_action(table.state, seat)
    # Two separate clients with the same token: a double click, or two tabs.
    clients = [ApiClient(user, api_for(user).token) for _ in range(2)]
    responses = race([lambda c=c: c.act(table.pk, table.version, **action) for c in clients])
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 409], [r.content for r in responses]
    stale = next(r for r in responses if r.status_code == 409).json()
    assert stale["error"]["code"] == "stale_version"
    assert stale["table"]["version"] == table.version + 1
    seen = table.version
    table.refresh_from_db()
    assert table.version == seen + 1 and Move.objects.filter(table=table).count() == 1


def test_different_seats_at_the_same_version_apply_once(alice, bob, carol, api_for):
    table = started_table(alice, bob, carol)
    seats = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    active = engine.seats_to_act(table.state)[0]
    others = [p for p in range(3) if p != active]
    # The active player draws while the others answer early "no thanks": all legal alone,
    # but only one of them may be the next version.
    calls = [
        lambda: ApiClient(seats[active], api_for(seats[active]).token).act(
            table.pk, table.version, **choose_action(table.state, active)
        )
    ] + [
        (
            lambda p=p: ApiClient(seats[p], api_for(seats[p]).token).act(
                table.pk, table.version, type="no_thanks"
            )
        )
        for p in others
    ]
    responses = race(calls)
    codes = sorted(r.status_code for r in responses)
    assert codes.count(200) == 1 and codes.count(409) == 2, [r.content for r in responses]
    seen = table.version
    table.refresh_from_db()
    assert (
        table.version == seen + 1 and table.move_count == Move.objects.filter(table=table).count()
    )


def test_joins_at_once_never_share_a_seat(alice, bob, carol, charlie):
    table = services.table_create(host=alice, seats=3)
    results = race(
        [lambda u=u: services.table_join(user=u, table_id=table.pk) for u in (bob, carol, charlie)]
    )
    refused = [r for r in results if isinstance(r, services.Conflict)]
    assert len(refused) == 1 and refused[0].code == "table_full"
    positions = sorted(Seat.objects.filter(table=table).values_list("position", flat=True))
    assert positions == [0, 1, 2]


def test_a_read_that_waited_for_the_lock_sees_what_the_holder_committed(alice, bob, carol):
    """Under READ COMMITTED a statement that waits for a row lock sees the joined rows as they
    were when it started: the seats must be read after the lock is held, or a move, timer or
    join that waited would work from seats another writer had already changed."""
    import time

    from django.db import transaction

    from games.services.locking import lock_table_with_seats

    table = started_table(alice, bob, carol)
    holder_in = threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                lock_table_with_seats(table.pk)
                holder_in.set()
                time.sleep(0.3)  # the other transaction is waiting for the lock meanwhile
                Seat.objects.filter(table=table).update(clock_bank=1234.0, missed_turns=2)
        finally:
            connections.close_all()

    def waiter() -> tuple[list[float | None], list[int]]:
        holder_in.wait(5)
        with transaction.atomic():
            _, seats = lock_table_with_seats(table.pk)
        return [s.clock_bank for s in seats], [s.missed_turns for s in seats]

    results = race([holder, waiter])
    banks, strikes = results[1]
    assert banks == [1234.0] * 3 and strikes == [2] * 3
