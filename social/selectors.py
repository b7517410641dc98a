"""What follows and blocks mean to the rest of the site; every function takes users or ids.

Public, relied on by other apps (games' joins and lobby, chat, nudges, moderation, tournaments):
``has_blocked(blocker, blocked)``, ``blocked_either_way(a, b)``, ``are_friends(a, b)``.
A block is silent: the blocked player is never told, their follow of the blocker stays in their
own list but counts for nothing (not a follower, not a friend), and whatever they send the
blocker (an invitation, a chat line, a nudge) is dropped on the blocker's side.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from games import presence
from games.models import Seat, Table

from .models import Block, Follow, Invitation

UserOrId = User | int | Any


def user_id(user: UserOrId) -> int:
    """The id of a user given as a ``User`` or an id."""
    if isinstance(user, int):
        return user
    return int(user.pk)


def has_blocked(blocker: UserOrId, blocked: UserOrId) -> bool:
    """``blocker`` has blocked ``blocked``."""
    return Block.objects.filter(blocker_id=user_id(blocker), blocked_id=user_id(blocked)).exists()


def blocked_either_way(a: UserOrId, b: UserOrId) -> bool:
    """One of the two has blocked the other."""
    x, y = user_id(a), user_id(b)
    return Block.objects.filter(
        Q(blocker_id=x, blocked_id=y) | Q(blocker_id=y, blocked_id=x)
    ).exists()


def blocked_ids(user: UserOrId) -> set[int]:
    """The ids of the players ``user`` has blocked."""
    return set(Block.objects.filter(blocker_id=user_id(user)).values_list("blocked_id", flat=True))


def blocked_by_ids(user: UserOrId) -> set[int]:
    """The ids of the players who have blocked ``user`` (for the refusals, never shown)."""
    return set(Block.objects.filter(blocked_id=user_id(user)).values_list("blocker_id", flat=True))


def avoided_ids(user: UserOrId) -> set[int]:
    """Players ``user`` is kept apart from: those they blocked and those who blocked them."""
    me = user_id(user)
    rows = Block.objects.filter(Q(blocker_id=me) | Q(blocked_id=me)).values_list(
        "blocker_id", "blocked_id"
    )
    return {b if a == me else a for a, b in rows}


def avoided_querysets(user: UserOrId) -> list[QuerySet[Block, Any]]:
    """Subqueries of the ids :func:`avoided_ids` gives, to exclude in another query (each
    ``.exclude(<user field>__in=q)``) instead of reading them first."""
    me = user_id(user)
    return [
        Block.objects.filter(blocker_id=me).values("blocked_id"),
        Block.objects.filter(blocked_id=me).values("blocker_id"),
    ]


def blocked_subquery(user: UserOrId) -> QuerySet[Block, Any]:
    """The ids of the players ``user`` blocked, as a subquery (``author_id__in=...``)."""
    return Block.objects.filter(blocker_id=user_id(user)).values("blocked_id")


def blocks_among(user: UserOrId, others: Iterable[UserOrId]) -> bool:
    """``user`` and any of ``others`` are kept apart (a block either way)."""
    ids = {user_id(o) for o in others}
    if not ids:
        return False
    me = user_id(user)
    return Block.objects.filter(
        Q(blocker_id=me, blocked_id__in=ids) | Q(blocked_id=me, blocker_id__in=ids)
    ).exists()


def are_friends(a: UserOrId, b: UserOrId) -> bool:
    """Each follows the other, and neither has blocked the other."""
    x, y = user_id(a), user_id(b)
    if x == y:
        return False
    follows = Follow.objects.filter(
        Q(follower_id=x, followed_id=y) | Q(follower_id=y, followed_id=x)
    ).count()
    return follows == 2 and not blocked_either_way(x, y)


def is_following(follower: UserOrId, followed: UserOrId) -> bool:
    return Follow.objects.filter(
        follower_id=user_id(follower), followed_id=user_id(followed)
    ).exists()


def following_ids(user: UserOrId) -> set[int]:
    """Whom ``user`` follows (as they see it: a follow of someone who blocked them stays)."""
    return set(
        Follow.objects.filter(follower_id=user_id(user)).values_list("followed_id", flat=True)
    )


def follower_ids(user: UserOrId) -> set[int]:
    """Who follows ``user``, but for the players ``user`` blocked."""
    me = user_id(user)
    rows = Follow.objects.filter(followed_id=me).exclude(
        follower_id__in=Block.objects.filter(blocker_id=me).values("blocked_id")
    )
    return set(rows.values_list("follower_id", flat=True))


def friend_ids(user: UserOrId) -> set[int]:
    """Mutual follows with no block either way."""
    return (following_ids(user) & follower_ids(user)) - avoided_ids(user)


def relations(user: UserOrId) -> dict[str, list[str]]:
    """``{"following", "followers", "friends"}``: usernames, sorted (``GET /api/friends``)."""
    following, followers = following_ids(user), follower_ids(user)
    friends = (following & followers) - avoided_ids(user)
    names = dict(User.objects.filter(pk__in=following | followers).values_list("pk", "username"))
    return {
        "following": sorted(names[i] for i in following if i in names),
        "followers": sorted(names[i] for i in followers if i in names),
        "friends": sorted(names[i] for i in friends if i in names),
    }


def blocked_names(user: UserOrId) -> list[str]:
    return sorted(
        Block.objects.filter(blocker_id=user_id(user)).values_list("blocked__username", flat=True)
    )


def invitations_for(user: UserOrId) -> list[Invitation]:
    """The invitations ``user`` may still answer: open tables they do not sit at, from players
    they have not blocked, newest first."""
    me = user_id(user)
    return list(
        Invitation.objects.filter(recipient_id=me, declined=False, table__status="open")
        .exclude(sender_id__in=Block.objects.filter(blocker_id=me).values("blocked_id"))
        .exclude(table__seats__user_id=me)
        .select_related("sender", "table")
        .order_by("-created")[:20]
    )


def relation(viewer: UserOrId, other: UserOrId) -> dict[str, bool]:
    """How ``viewer`` stands towards ``other``, for the buttons on their page and at a table:
    ``following``, ``friends``, ``blocked`` (by the viewer; never whether ``other`` blocked
    them: blocking is silent)."""
    me, them = user_id(viewer), user_id(other)
    following = is_following(me, them)
    blocked = has_blocked(me, them)
    return {
        "following": following,
        "friends": following and not blocked and are_friends(me, them),
        "blocked": blocked,
    }


def friends_page(user: User) -> dict[str, Any]:
    """What ``/friends/`` shows: each friend (online first, then by name) with the public
    games being played where they sit (to watch), whom I follow, who follows me, whom I
    blocked."""
    rel = relations(user)
    friends = list(User.objects.filter(pk__in=friend_ids(user)).order_by("username"))
    online = presence.online_many([f.pk for f in friends]) or {}
    watch: dict[int, list[int]] = {}
    for table_id, player in (
        Seat.objects.filter(
            user__in=friends,
            expelled=False,
            table__status=Table.Status.PLAYING,
            table__public=True,
        )
        .order_by("-table__updated")
        .values_list("table_id", "user_id")
    ):
        watch.setdefault(player, []).append(table_id)
    rows = [
        {"user": f, "online": bool(online.get(f.pk)), "watch": watch.get(f.pk, [])[:5]}
        for f in friends
    ]
    rows.sort(key=lambda r: not r["online"])
    return {
        "friends": rows,
        "following": rel["following"],
        "followers": rel["followers"],
        "blocked": blocked_names(user),
    }
