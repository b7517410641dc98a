"""What moderation adds to the chat, without chat importing moderation (moderation sits above
chat: it hides messages and mutes people through chat, never the other way round).

Moderation registers, from its ``AppConfig.ready``, who is muted (``provide_mute``) and what
it records when a moderator hides or shows a message (``on_hidden``: its audit row, written
inside the transaction that hides it). Without moderation installed nobody is muted and
nothing is audited.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    # Only for the types: moderation imports this module from its apps.py.
    from django.contrib.auth.models import User

    from chat.models import ChatMessage


class Mute(Protocol):
    until: datetime | None


MuteOf = Callable[["User"], Mute | None]


class HiddenHook(Protocol):
    def __call__(
        self, *, moderator: User, message: ChatMessage, reason: str, hidden: bool
    ) -> Any: ...


_mutes: list[MuteOf] = []
_hidden: list[HiddenHook] = []


def provide_mute(func: MuteOf) -> MuteOf:
    """Register ``func(user)``: the user's live mute (with its ``until``), or None."""
    if func not in _mutes:
        _mutes.append(func)
    return func


def on_hidden(func: HiddenHook) -> HiddenHook:
    """Register ``func``: called inside the transaction that hides (or shows) a message."""
    if func not in _hidden:
        _hidden.append(func)
    return func


def mute_of(user: User) -> Mute | None:
    for func in _mutes:
        mute = func(user)
        if mute is not None:
            return mute
    return None


def message_hidden(*, moderator: User, message: ChatMessage, reason: str, hidden: bool) -> None:
    for func in _hidden:
        func(moderator=moderator, message=message, reason=reason, hidden=hidden)
