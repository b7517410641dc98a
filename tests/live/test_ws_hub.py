"""A process's table sockets share one subscription per table on Redis (games/hub.py): opening
more sockets does not add subscriptions, every socket still gets each change, and the table's
subscription goes with its last socket."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
import redis
from channels.db import database_sync_to_async

from games import consumers, engine
from moderation import services as moderation
from tests.conftest import make_moderator
from tests.live.test_websocket import _act, started
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    close_db_pools,
    communicator,
    connect,
    refused_code,
    run,
    session_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]


def _subscriptions(url: str) -> list[str]:
    return sorted(c.decode() for c in redis.Redis.from_url(url).pubsub_channels())


def test_sockets_of_a_table_share_one_subscription_and_each_hears_every_change(
    alice, bob, carol, own_redis
):
    table = started(alice, bob, carol)
    people = {0: alice, 1: bob, 2: carol}
    keys = [session_for(alice), session_for(bob), session_for(carol), session_for(bob)]

    async def scenario() -> None:
        first, _ = await connect(table.pk, keys[0])
        # The process's channel, the group every process hears (sign-outs, bans) and the
        # table's group.
        alone = await database_sync_to_async(_subscriptions)(own_redis.url)
        assert len(alone) == 3, alone
        others = [(await connect(table.pk, key))[0] for key in keys[1:]]
        sockets = [first, *others]
        # Three more sockets (three sessions, two users): not one subscription more.
        assert await database_sync_to_async(_subscriptions)(own_redis.url) == alone

        state = await database_sync_to_async(lambda: type(table).objects.get(pk=table.pk).state)()
        user = people[engine.seats_to_act(state)[0]]
        version = await database_sync_to_async(_act)(table.pk, user)
        for comm in sockets:
            pushed = await comm.receive_json_from(timeout=TIMEOUT)
            assert pushed["type"] == "table"
            assert pushed["version"] == version

        for comm in sockets:
            await comm.disconnect()
        # The table's group goes with its last socket; the process's own two stay.
        for _ in range(50):
            left = await database_sync_to_async(_subscriptions)(own_redis.url)
            if len(left) == 2:
                break
            await asyncio.sleep(0.05)
        assert len(left) == 2 and set(left) < set(alone), (left, alone)

    run(scenario)


def test_a_suspension_that_comes_while_a_socket_opens_still_closes_it(
    alice, bob, carol, monkeypatch
):
    """The suspension commits after the opening socket read its session (the user was still
    allowed) and before the hub knew the socket as theirs: it is refused all the same."""
    mod = make_moderator("mod", "game")
    table = started(alice, bob, carol, public=False)
    key = session_for(bob)
    opening = consumers._opening_frame

    async def suspended_meanwhile(**kwargs):
        found = await opening(**kwargs)
        await database_sync_to_async(moderation.user_suspend)(
            moderator=mod, user=bob, duration=timedelta(days=1), reason="abuse"
        )
        await asyncio.sleep(0.2)  # the hub hears "user.closed", for no socket it knows
        return found

    monkeypatch.setattr(consumers, "_opening_frame", suspended_meanwhile)

    async def scenario() -> None:
        comm = communicator(table.pk, key)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        assert await refused_code(comm) == 4401

    run(scenario)
