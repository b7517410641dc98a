"""What games reads from the apps built on it, without importing them: who trusts whom.

games sits at the bottom of the site. Its lobby, its join rules and its table pages show each
player's reliability and refuse a seat by it (stats computes it), keep players apart who
blocked one another and put friends first (social keeps who follows and blocks whom), and show
a finished game's rating changes (stats again). Each app registers its provider from its
``AppConfig.ready``:

- ``provide_trust(trust)``: a :class:`Trust` (stats): reliability figures, the games a player
  finished in their seat (the cap on games at once), a finished game's rating changes;
- ``provide_relations(relations)``: a :class:`Relations` (social): blocks, friends, a viewer's
  relation to a player, the invitations to answer.

Without the app, games goes on as a site without it would: every figure "new", nobody
finished a game, no rating changes; nobody blocked, no friends, no invitations. The layer test
(tests/site/test_layers.py) keeps games from importing stats and social again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from games.reliability import NONE, Figure

if TYPE_CHECKING:
    # Only for the types: stats and social import this module from their apps.py.
    from django.contrib.auth.models import User
    from django.db.models import QuerySet


class Trust(Protocol):
    def reliability(self, user_id: int) -> Figure:
        """A player's reliability."""
        ...

    def reliability_many(self, user_ids: Iterable[int | None]) -> dict[int, Figure]:
        """Reliability of many players in one query: every id given (but None) is a key."""
        ...

    def games_finished(self, user_id: int) -> int:
        """The games the player finished in their seat (not expelled, not as the bot)."""
        ...

    def rating_changes(self, table_id: int) -> list[dict[str, Any]]:
        """Each person's rating before and after the finished game at the table, seat order
        (``[{"position", "user", "rated", "before", "after", "change"}]``, the API's pinned
        shape); empty before the game's results are written."""
        ...


class Relations(Protocol):
    def blocks_among(self, user: User, others: Sequence[int]) -> bool:
        """``user`` and any of the users ``others`` are kept apart (a block either way)."""
        ...

    def avoided_querysets(self, user: User) -> list[QuerySet[Any, Any]]:
        """Subqueries of the ids of the players ``user`` is kept apart from, to exclude in
        another query (``.exclude(<user field>__in=q)`` for each)."""
        ...

    def friend_ids(self, user: User) -> set[int]:
        """``user``'s friends: mutual follows, no block either way."""
        ...

    def relation(self, viewer: User, other: User) -> dict[str, bool]:
        """How ``viewer`` stands towards ``other``: ``following``, ``friends``, ``blocked``."""
        ...

    def invitations_for(self, user: User) -> list[Any]:
        """The invitations to open tables ``user`` may still answer, newest first (the lobby's
        template shows each one's ``sender`` and ``table``)."""
        ...


class _NoTrust:
    """A site without stats: every player new, no finished game, no rating."""

    def reliability(self, user_id: int) -> Figure:
        return NONE

    def reliability_many(self, user_ids: Iterable[int | None]) -> dict[int, Figure]:
        return {u: NONE for u in user_ids if u is not None}

    def games_finished(self, user_id: int) -> int:
        return 0

    def rating_changes(self, table_id: int) -> list[dict[str, Any]]:
        return []


class _NoRelations:
    """A site without social: nobody follows or blocks anybody."""

    def blocks_among(self, user: User, others: Sequence[int]) -> bool:
        return False

    def avoided_querysets(self, user: User) -> list[QuerySet[Any, Any]]:
        return []

    def friend_ids(self, user: User) -> set[int]:
        return set()

    def relation(self, viewer: User, other: User) -> dict[str, bool]:
        return {"following": False, "friends": False, "blocked": False}

    def invitations_for(self, user: User) -> list[Any]:
        return []


_trust: list[Trust] = [_NoTrust()]
_relations: list[Relations] = [_NoRelations()]


def provide_trust(provider: Trust) -> Trust:
    """Register the app that knows players' reliability and results (stats)."""
    _trust[0] = provider
    return provider


def provide_relations(provider: Relations) -> Relations:
    """Register the app that knows who follows and blocks whom (social)."""
    _relations[0] = provider
    return provider


def trust() -> Trust:
    return _trust[0]


def relations() -> Relations:
    return _relations[0]
