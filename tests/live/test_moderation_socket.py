"""A suspended or banned user's websockets close at once, and a new one is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from moderation import services
from tests.conftest import make_moderator
from tests.live.test_websocket import started
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


def test_a_suspension_closes_the_users_sockets_and_refuses_new_ones(
    alice, bob, carol, django_user_model
):
    mod = make_moderator("mod", "game")
    table = started(alice, bob, carol, public=False)
    other = started(bob, alice, carol, public=True)
    bob_key, alice_key = session_for(bob), session_for(alice)

    async def scenario() -> None:
        bob_here, _ = await connect(table.pk, bob_key)
        bob_there, _ = await connect(other.pk, bob_key)
        alice_here, _ = await connect(table.pk, alice_key)
        await database_sync_to_async(services.user_suspend)(
            moderator=mod, user=bob, duration=timedelta(days=1), reason="abuse"
        )
        # Both of bob's sockets close with "signed out"; alice's stays and sees bob's seat
        # go to the bot.
        assert await refused_code(bob_here) == 4401
        assert await refused_code(bob_there) == 4401
        while True:
            frame = await alice_here.receive_json_from(timeout=TIMEOUT)
            if frame["type"] == "table":
                break
        seats = {s["user"]: s for s in frame["table"]["seats"]}
        assert seats["bob"]["expelled"] is True
        # A new socket of bob's session is refused.
        again = communicator(table.pk, bob_key)
        connected, _ = await again.connect(timeout=TIMEOUT)
        assert connected
        assert await refused_code(again) == 4401
        await alice_here.disconnect()

    run(scenario)
