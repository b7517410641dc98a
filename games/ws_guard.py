"""What a websocket does with frames it cannot use: answer, and stay open.

Mixed into a Channels JSON consumer (before ``AsyncJsonWebsocketConsumer``). Text that is not
JSON, a binary frame, or JSON nested deeper than any message of ours gets an error frame
``{"type": "error", "error": {"code", "message"}}`` and the socket stays open (it closed with
1011 and logged a traceback each time); a frame over ``MAX_FRAME_CHARS`` closes with 1009
("message too big"), the standard code. A database that is briefly away answers an
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
from django.db import InterfaceError, OperationalError

logger = logging.getLogger("games.ws")

MAX_FRAME_CHARS = 64 * 1024
MAX_DEPTH = 16
CLOSE_TOO_BIG = 1009
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


class GuardedJsonMixin:
    """Overrides ``receive`` and ``encode_json`` of ``AsyncJsonWebsocketConsumer``."""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return frame_text(content)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        kwargs = self.scope.get("url_route", {}).get("kwargs", {})  # type: ignore[attr-defined]
        if any(isinstance(v, int) and v > ID_MAX for v in kwargs.values()):
            await self.accept()  # type: ignore[attr-defined]
            await self.close(code=CLOSE_NOT_FOUND)  # type: ignore[attr-defined]
            return
        await super().websocket_connect(message)  # type: ignore[misc]

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if size > MAX_FRAME_CHARS:
            await self.close(code=CLOSE_TOO_BIG)  # type: ignore[attr-defined]
            return
        if text_data is None:
            await self.frame_error(400, "bad_frame", "send JSON text frames, not binary ones")
            return
        if too_deep(text_data):
            await self.frame_error(400, "bad_json", f"JSON nested deeper than {MAX_DEPTH} levels")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError) as exc:
            await self.frame_error(400, "bad_json", f"the frame is not valid JSON: {exc}"[:200])
            return
        try:
            await self.receive_json(content, **kwargs)  # type: ignore[attr-defined]
        except (OperationalError, InterfaceError) as exc:
            logger.warning("database unavailable for a websocket message: %s", exc)
            await self.frame_error(503, "unavailable", "the database is briefly unavailable: retry")

    async def frame_error(self, status: int, code: str, message: str) -> None:
        """An error frame; ``status`` is the HTTP status the same refusal has in the API."""
        await self.send_json({"type": "error", "error": {"code": code, "message": message}})  # type: ignore[attr-defined]
