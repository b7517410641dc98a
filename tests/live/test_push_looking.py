"""The table's socket tells the push side whether its player has the table on screen: no push
about a table open in a tab that is shown (games/presence.py ``is_looking``)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import presence
from tests.live.test_websocket import started
from tests.live.test_websocket_log import connect_since
from tests.live.wsutil import TIMEOUT, close_db_pools, run, session_for  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]


def test_the_socket_marks_the_table_looked_at_while_its_tab_is_shown(alice, bob):
    table = started(alice, bob, seats=3, public=False)
    key = session_for(alice)
    looking = database_sync_to_async(lambda: presence.is_looking(alice.pk, table.pk))
    seen: list[bool] = []

    async def scenario() -> None:
        comm = connect_since(table.pk, key, 0, hidden=True)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        await comm.receive_json_from(timeout=TIMEOUT)
        seen.append(await looking())  # opened in a background tab
        await comm.send_json_to({"type": "looking", "visible": True})
        await comm.send_json_to({"type": "ping"})
        await comm.receive_json_from(timeout=TIMEOUT)  # the pong: the messages before it ran
        seen.append(await looking())
        await comm.send_json_to({"type": "looking", "visible": False})
        await comm.send_json_to({"type": "ping"})
        await comm.receive_json_from(timeout=TIMEOUT)
        seen.append(await looking())
        await comm.send_json_to({"type": "looking", "visible": True})
        await comm.send_json_to({"type": "ping"})
        await comm.receive_json_from(timeout=TIMEOUT)
        await comm.disconnect()
        seen.append(await looking())  # the tab closed

    run(scenario)
    assert seen == [False, True, False, False]


def test_a_socket_opened_in_a_shown_tab_looks_at_once(alice, bob):
    table = started(alice, bob, seats=3, public=False)
    key = session_for(alice)
    looking = database_sync_to_async(lambda: presence.is_looking(alice.pk, table.pk))
    seen: list[bool] = []

    async def scenario() -> None:
        comm = connect_since(table.pk, key, 0)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        await comm.receive_json_from(timeout=TIMEOUT)
        seen.append(await looking())
        await comm.disconnect()

    run(scenario)
    assert seen == [True]
