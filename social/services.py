"""Follow, unfollow, block, unblock, invite a friend: each one short transaction.

Blocking is silent: nothing tells the blocked player, and what they do towards the blocker
still answers as usual (a follow is recorded, an invitation accepted) but reaches nobody
(``social/selectors.py`` leaves it out of everything the blocker sees).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from games.models import Table
from games.services import (
    NOTIFY_INVITATION,
    Conflict,
    NotSeated,
    TableNotFound,
    send_task_after_commit,
)

from . import selectors
from .errors import PlayerNotFound, SocialRefused
from .models import Block, Follow, Invitation


def player_by_name(username: str) -> User:
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        raise PlayerNotFound(f"there is no player {username}")
    return user


@dataclass(frozen=True)
class FollowState:
    following: bool
    friends: bool


def follow_add(*, user: User, username: str) -> FollowState:
    """``user`` follows ``username``; following each other makes friends."""
    other = player_by_name(username)
    if other.pk == user.pk:
        raise SocialRefused("you cannot follow yourself")
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=user, followed=other)
    except IntegrityError:
        pass  # two clicks at once: the other made the row
    return FollowState(following=True, friends=selectors.are_friends(user, other))


def follow_remove(*, user: User, username: str) -> FollowState:
    other = player_by_name(username)
    Follow.objects.filter(follower=user, followed=other).delete()
    return FollowState(following=False, friends=False)


def block_add(*, user: User, username: str) -> None:
    """``user`` blocks ``username``: they stop following them and their invitations to each
    other are withdrawn; the blocked player is told nothing."""
    other = player_by_name(username)
    if other.pk == user.pk:
        raise SocialRefused("you cannot block yourself")
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(follower=user, followed=other).delete()
        Invitation.objects.filter(sender=user, recipient=other).delete()
        Invitation.objects.filter(sender=other, recipient=user).delete()


def block_remove(*, user: User, username: str) -> None:
    other = player_by_name(username)
    Block.objects.filter(blocker=user, blocked=other).delete()


def invitation_send(*, user: User, table_id: int, username: str) -> Invitation | None:
    """``user``, seated at open table ``table_id``, invites their friend ``username`` to it.

    Refused for someone who is not a friend. A friend who blocked ``user`` is not one (the
    refusal reads the same as for any non-friend). Returns the invitation (None when the
    friend already sits there)."""
    other = player_by_name(username)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableNotFound("there is no such table")
    seated = set(table.seats.exclude(user=None).values_list("user_id", flat=True))
    if user.pk not in seated:
        raise NotSeated("only a player seated at this table can invite to it")
    if table.status != Table.Status.OPEN:
        raise Conflict("this table has already started", code="table_started")
    if not selectors.are_friends(user, other):
        raise SocialRefused(
            f"you can invite your friends (players you follow who follow you): "
            f"{other.get_username()} is not one",
            code="not_friends",
        )
    if other.pk in seated:
        return None
    with transaction.atomic():
        invitation, made = Invitation.objects.get_or_create(
            table=table, recipient=other, defaults={"sender": user}
        )
        if not made and invitation.declined:
            invitation.declined = False
            invitation.sender = user
            invitation.save(update_fields=["declined", "sender"])
            made = True
        if made:
            # Pushed to the friend's browsers (the notify app), once it is committed.
            send_task_after_commit(
                NOTIFY_INVITATION,
                (invitation.pk,),
                queue=settings.MAYI_MAIL_QUEUE,
                what=f"the push of invitation {invitation.pk}",
            )
    return invitation


def invitation_decline(*, user: User, invitation_id: int) -> None:
    Invitation.objects.filter(pk=invitation_id, recipient=user).update(declined=True)
