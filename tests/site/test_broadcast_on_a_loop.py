"""A broadcast from sync code on a running event loop that is no server's (a browser test's own
changes between Playwright's sync steps run on its loop): expected, so a warning without a
traceback (it logged an ERROR and a RuntimeError's traceback for every such change)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import broadcast

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    # The case is the in-process layer's (the embedded default, and the browser tests'): it
    # needs the loop to send. Redis's layer publishes from sync code without one (broadcast.py).
    settings.CHANNEL_LAYERS = IN_MEMORY


def test_a_broadcast_on_a_running_loop_is_a_warning_without_a_traceback(caplog):
    async def on_the_loop() -> None:
        broadcast.table_changed(7, 3)
        broadcast.session_ended("abc123")

    with caplog.at_level(logging.WARNING, logger="games.live"):
        asyncio.run(on_the_loop())
    records = [r for r in caplog.records if r.name == "games.live"]
    assert [r.levelno for r in records] == [logging.WARNING, logging.WARNING]
    assert "table 7 version 3 not broadcast" in records[0].getMessage()
    assert all(r.exc_info is None for r in records)


def test_off_a_loop_the_broadcast_still_reaches_the_tables_group(caplog):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.group_name(8), channel)
    broadcast.table_changed(8, 4)
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "table.changed" and message["version"] == 4
    assert not [r for r in caplog.records if r.name == "games.live"]
