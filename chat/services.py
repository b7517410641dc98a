"""Table chat services: post a message, hide one (moderators), and read a page of them.

Each change runs in one transaction; the broadcast to the table's sockets runs after the
commit and carries only the message id: every socket reads the message itself and sends it
only if its own user may see it (chat.live).
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, transaction

from accounts.sessions import session_user
from games import services as games
from games.models import Seat, Table
from games.services import NOTIFY_MENTION, send_task_after_commit
from mayi_site.timezones import zoned
from social.selectors import blocked_subquery, has_blocked

from . import hooks, live
from .models import TEXT_MAX, ChatMessage

logger = logging.getLogger("chat")

PAGE_SIZE = 50

# Canned reactions: one click, the same words for everyone.
REACTIONS = {
    "nice_buy": "Nice buy!",
    "well_played": "Well played",
    "good_luck": "Good luck!",
    "oops": "Oops!",
    "thanks": "Thanks!",
    "good_game": "Good game",
}


class ChatClosed(games.Conflict):
    code = "chat_closed"


class ChatMuted(games.ServiceError):
    status = 403
    code = "chat_muted"


class BadMessage(games.ServiceError):
    status = 400
    code = "bad_message"


class MessageNotFound(games.ServiceError):
    status = 404
    code = "message_not_found"


def chat_audiences(table: Table, seats: list[Seat], user: User | AnonymousUser) -> tuple[str, ...]:
    """The audiences whose messages ``user`` sees at this table, the one they write to first.

    Raises NotSeated when they may not follow the table at all (a private table, not seated).
    """
    games.table_check_access(table, seats, user)
    if games.seat_of(seats, user) is not None:
        return (ChatMessage.Audience.PLAYERS, ChatMessage.Audience.ALL)
    return (ChatMessage.Audience.SPECTATORS, ChatMessage.Audience.ALL)


def clean_text(text: str) -> str:
    """The text as stored: control characters out, runs of spaces and newlines as one space."""
    text = "".join(
        " " if ch in "\r\n\t" else ch
        for ch in text
        if ch in "\r\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    )
    return " ".join(text.split())


def chat_mute_notice(user: User | AnonymousUser) -> str:
    """What a muted user is told (the API's refusal, the table page's chat panel), or ""."""
    mute = hooks.mute_of(user) if user.is_authenticated else None
    if mute is None:
        return ""
    until = f" until {zoned(mute.until)}" if mute.until else ""
    return f"a moderator muted you in chat{until}"


def chat_post(
    *,
    table_id: int,
    user: User,
    text: str | None = None,
    reaction: str | None = None,
) -> ChatMessage:
    """``user`` says ``text`` (or a canned ``reaction``) at the table, to the players if they
    are seated, else to the spectators of a public table. Stored as plain text."""
    if reaction is not None:
        if reaction not in REACTIONS:
            raise BadMessage(f"no such reaction; one of {', '.join(REACTIONS)}")
        text = REACTIONS[reaction]
    text = clean_text(text or "")
    if not text:
        raise BadMessage("say something: the message is empty")
    if len(text) > TEXT_MAX:
        raise BadMessage(f"a message holds at most {TEXT_MAX} characters")
    with transaction.atomic():
        table, seats = games.table_read(table_id=table_id)
        audience = chat_audiences(table, seats, user)[0]
        if table.status == Table.Status.ABORTED:
            raise ChatClosed("this table is closed")
        notice = chat_mute_notice(user)
        if notice:
            raise ChatMuted(notice)
        message = ChatMessage.objects.create(
            table=table,
            author=user,
            audience=audience,
            text=text,
            reaction=reaction or "",
            move_seq=table.move_count,
        )
        live.on_commit_chat(table.pk, message.pk)
        if "@" in text and audience != ChatMessage.Audience.SPECTATORS:
            # The notify app pushes the message to the players it names (@name).
            send_task_after_commit(
                NOTIFY_MENTION,
                (message.pk,),
                queue=settings.MAYI_MAIL_QUEUE,
                what=f"the mentions of chat message {message.pk}",
            )
    return message


def chat_notice(*, table: Table, text: str) -> ChatMessage:
    """A notice from the site that everyone at the table sees (the caller's transaction)."""
    message = ChatMessage.objects.create(
        table=table,
        author=None,
        audience=ChatMessage.Audience.ALL,
        text=text[:TEXT_MAX],
        move_seq=table.move_count,
    )
    live.on_commit_chat(table.pk, message.pk)
    return message


def chat_hide(*, message_id: int, moderator: User, reason: str) -> ChatMessage:
    """A moderator hides a message: kept for the record, shown to nobody at the table, and
    taken off the pages that show it now."""
    return _set_hidden(message_id, moderator, reason, hidden=True)


def chat_unhide(*, message_id: int, moderator: User, reason: str) -> ChatMessage:
    """A moderator shows a hidden message again (hidden by mistake, or on appeal): back on
    the pages of those who may see it, in its place among the others."""
    return _set_hidden(message_id, moderator, reason, hidden=False)


def _set_hidden(message_id: int, moderator: User, reason: str, *, hidden: bool) -> ChatMessage:
    """Hide or show a message once, audited, and push the change to the table's pages; a
    message already so is left as it is (no second audit row). The moderator's role must
    hold the power to hide (every moderator role does: docs/MODERATION.md)."""
    if not (moderator.is_active and moderator.has_perm("chat.hide_chatmessage")):
        raise PermissionDenied("your moderator role may not hide chat messages")
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise MessageNotFound(f"there is no chat message {message_id}")
        if message.hidden == hidden:
            return message
        message.hidden = hidden
        message.save(update_fields=["hidden"])
        # Moderation's audit row, in this transaction (chat/hooks.py).
        hooks.message_hidden(moderator=moderator, message=message, reason=reason, hidden=hidden)
        live.on_commit_chat(message.table_id, message.pk)
    return message


def chat_page(
    *, table_id: int, user: User, before: int | None = None, limit: int = PAGE_SIZE
) -> tuple[list[ChatMessage], bool]:
    """The newest ``limit`` messages ``user`` may see (older than id ``before``), oldest
    first, and whether there are older ones."""
    table, seats = games.table_get_for_user(table_id=table_id, user=user)
    audiences = chat_audiences(table, seats, user)
    rows = ChatMessage.objects.filter(table=table, audience__in=audiences, hidden=False)
    # The players ``user`` blocked say nothing to them (and are not told).
    rows = rows.exclude(author_id__in=blocked_subquery(user))
    if before is not None:
        rows = rows.filter(pk__lt=before)
    page = list(rows.select_related("author").order_by("-id")[: limit + 1])
    more = len(page) > limit
    return page[:limit][::-1], more


def chat_json(message: ChatMessage, user: User | AnonymousUser) -> dict[str, Any]:
    """A message as the API and the socket send it (a hidden one only says so)."""
    if message.hidden:
        return {"id": message.pk, "hidden": True}
    return {
        "id": message.pk,
        "hidden": False,
        "author": message.author.get_username() if message.author else None,
        "mine": message.author_id is not None and message.author_id == user.pk,
        "audience": message.audience,
        "text": message.text,
        "reaction": message.reaction or None,
        "move": message.move_seq,
        "created": message.created.isoformat(),
    }


@dataclass(frozen=True)
class ChatRead:
    """A new (or newly hidden) message with its table as read once for all of the table's
    sockets in a process; each socket then decides for its own user."""

    message: ChatMessage
    table: Table
    seats: list[Seat]


def chat_read(message_id: int) -> ChatRead | None:
    """The message and its table, or None when either is gone (or cannot be read now)."""
    try:
        message = ChatMessage.objects.select_related("author").filter(pk=message_id).first()
        if message is None:
            return None
        table, seats = games.table_read(table_id=message.table_id)
    except games.ServiceError:
        return None
    except DatabaseError:
        # A chat push that could not be read costs the sockets this message only (the page
        # reads the chat again when it comes back); it must not close the table's sockets.
        logger.warning("could not read chat message %s for the sockets", message_id, exc_info=True)
        return None
    return ChatRead(message, table, seats)


def chat_frame_of(read: ChatRead | None, user: User) -> dict[str, Any] | None:
    """The socket frame of the message read for ``user``, or None when they may not see it:
    a spectators' message never reaches a player."""
    if read is None:
        return None
    try:
        audiences = chat_audiences(read.table, read.seats, user)
    except games.ServiceError:
        return None
    if read.message.audience not in audiences:
        return None
    if read.message.author_id is not None and has_blocked(user, read.message.author_id):
        return None
    return {"type": "chat", "message": chat_json(read.message, user)}


def chat_frame_for_session(read: ChatRead | None, session_key: str | None) -> dict[str, Any] | None:
    """:func:`chat_frame_of` for a socket's session (None once it is signed out)."""
    if read is None:
        return None
    try:
        user = session_user(session_key)
    except DatabaseError:
        logger.warning("could not read a socket's session for a chat push", exc_info=True)
        return None
    return chat_frame_of(read, user) if user is not None else None
