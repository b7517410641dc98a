"""Chat over the table's websocket: after a commit, the table's group hears "chat.message"
with the message id, and each consumer sends the message only if its own user may see it."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games import broadcast

logger = logging.getLogger("chat.live")


def on_commit_chat(table_id: int, message_id: int) -> None:
    """After the caller's transaction commits, tell the table's sockets about the message."""
    # ``sent`` tells a later push of the same message (it was hidden) from this one: the
    # sockets of one push share one read of it.
    transaction.on_commit(
        lambda: group_send(
            broadcast.group_name(table_id),
            {"type": "chat.message", "table": table_id, "id": message_id, "sent": time.time_ns()},
        )
    )


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send on the channel layer from sync code; a lost chat push costs freshness only (the
    page reads the chat again when its socket reconnects), so failures are logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = broadcast.server_loop()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.exception("could not send %s to %s", message.get("type"), group)
