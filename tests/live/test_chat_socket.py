"""Table chat over the table's websocket: each socket gets a message only if its user may
see it. A spectators' message never reaches a player; a hidden one is taken back."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from chat import services as chat
from tests.conftest import make_moderator
from tests.live.test_websocket import started
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    close_db_pools,
    connect,
    run,
    session_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]

post = database_sync_to_async(chat.chat_post)


async def next_chat(comm) -> dict:
    """The next chat frame of a socket (table frames of the same moment are skipped)."""
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "chat":
            return frame["message"]


def test_spectators_chat_never_reaches_players(alice, bob, carol, charlie):
    table = started(alice, bob, carol, public=True)
    keys = {u.username: session_for(u) for u in (alice, bob, charlie)}

    async def scenario() -> None:
        sockets = {name: (await connect(table.pk, key))[0] for name, key in keys.items()}
        spoken = await post(table_id=table.pk, user=charlie, text="alice has three wilds")
        # The spectator hears the spectator; the players hear nothing.
        heard = await next_chat(sockets["charlie"])
        assert heard["id"] == spoken.pk and heard["text"] == "alice has three wilds"
        for name in ("alice", "bob"):
            assert await sockets[name].receive_nothing(timeout=0.5)
        said = await post(table_id=table.pk, user=bob, text="your turn, alice")
        # Each player's next chat frame is the player's message: the spectator's was dropped.
        for name in ("alice", "bob"):
            heard = await next_chat(sockets[name])
            assert heard["id"] == said.pk and heard["author"] == "bob"
            assert heard["mine"] is (name == "bob")
        # ... and the players' message never reaches the spectator.
        assert await sockets["charlie"].receive_nothing(timeout=0.5)
        for comm in sockets.values():
            await comm.disconnect()

    run(scenario)


def test_a_hidden_message_is_taken_back(alice, bob, carol):
    table = started(alice, bob, carol, public=False)
    moderator = make_moderator("carol", "chat", user=carol)
    key = session_for(alice)

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        said = await post(table_id=table.pk, user=bob, text="rude words")
        assert (await next_chat(comm))["text"] == "rude words"
        await database_sync_to_async(chat.chat_hide)(
            message_id=said.pk, moderator=moderator, reason="abuse"
        )
        assert await next_chat(comm) == {"id": said.pk, "hidden": True}
        await comm.disconnect()

    run(scenario)
