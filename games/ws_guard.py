"""What a websocket does with frames it cannot use: answer, and stay open.

The base of a Channels JSON consumer (``GuardedJsonConsumer``). Text that is not JSON, a binary
frame, or JSON nested deeper than any message of ours gets an error frame
``{"type": "error", "error": {"code", "message"}}`` (``send_error``: the one way a socket
answers a refusal, in the API's one shape, games/errors.py) and the socket stays open (it closed with
1011 and logged a traceback each time); a frame over ``MAX_FRAME_CHARS`` closes with 4413 (as
HTTP's 413; the standard 1009 is one a server may not send under daphne: its websocket library
allows a server 1000 and 3000-4999 only, and turned 1009 into 1011 and a traceback). A database that is briefly away answers an
``unavailable`` error frame instead of killing the socket; the client re-syncs by version.
A path id beyond the 64-bit range closes with 4404, as an id no table has.

Frames are encoded with orjson (``frame_text``): the same JSON object as the standard
library's ``json.dumps`` gave (compact, and UTF-8 instead of ``\\u`` escapes), at an eighth
of its CPU on daphne's event loop (a 1 kB frame: 5 against 35 us); what orjson refuses (an
int past 64 bits, a lone surrogate) falls back to ``json.dumps``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import orjson
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError

from games.errors import error_body
from mayi_site import metrics

logger = logging.getLogger("games.ws")

MAX_FRAME_CHARS = 64 * 1024
MAX_DEPTH = 16
CLOSE_TOO_BIG = 4413
CLOSE_NOT_FOUND = 4404
ID_MAX = 2**63 - 1


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (checked before parsing:
    json.loads of 100k nested brackets raises RecursionError half-way through the stack)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def frame_text(content: Any) -> str:
    """A frame's JSON text: ``json.loads`` of it is ``json.loads(json.dumps(content))``
    (int keys become strings, as the standard library makes them)."""
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(content)


def message_ref(content: Any) -> str | None:
    """A client message's name for itself (``ref``: up to 64 characters), echoed on the
    answer to it; None when it has none that fits."""
    ref = content.get("ref") if isinstance(content, dict) else None
    return ref if isinstance(ref, str) and 0 < len(ref) <= 64 else None


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    """``AsyncJsonWebsocketConsumer`` with a guarded ``receive``, orjson's ``encode_json`` and
    the one error frame, ``send_error``."""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        metrics.frames_sent.inc()  # every frame a consumer sends passes here
        return frame_text(content)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        metrics.websockets_open.dec()
        await super().websocket_disconnect(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        # Channels sends websocket_disconnect for every connect, refused or not: the gauge
        # goes down there.
        metrics.websockets_open.inc()
        kwargs = self.scope.get("url_route", {}).get("kwargs", {})
        if any(isinstance(v, int) and v > ID_MAX for v in kwargs.values()):
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await super().websocket_connect(message)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if size > MAX_FRAME_CHARS:
            await self.close(code=CLOSE_TOO_BIG)
            return
        if text_data is None:
            await self.send_error("bad_frame", "send JSON text frames, not binary ones")
            return
        if too_deep(text_data):
            await self.send_error("bad_json", f"JSON nested deeper than {MAX_DEPTH} levels")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError) as exc:
            await self.send_error("bad_json", f"the frame is not valid JSON: {exc}"[:200])
            return
        try:
            await self.receive_json(content, **kwargs)
        except (OperationalError, InterfaceError) as exc:
            logger.warning("database unavailable for a websocket message: %s", exc)
            # A move's answer names its ref: the page waiting on it hears now, not at its timeout.
            await self.send_error(
                "unavailable", "the database is briefly unavailable: retry", message_ref(content)
            )

    async def send_error(
        self, code: str, message: str, ref: str | None = None, **extra: Any
    ) -> None:
        """A refusal, in the API's one shape (a code of games/errors.py); the socket stays open.
        ``ref``: the client's name for the message refused, when it gave one; ``extra``: what
        the API's answer of the same refusal carries beside the error (a 409's fresh table)."""
        frame: dict[str, Any] = {**extra, "type": "error", **error_body(code, message)}
        if ref is not None:
            frame["ref"] = ref
        await self.send_json(frame)
