"""What social gives games (``games.providers.Relations``): who blocked whom, friends, a
viewer's relation to a player, the invitations to answer. Registered from social's AppConfig."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from . import selectors
from .models import Invitation


class SocialRelations:
    def blocks_among(self, user: User, others: Sequence[int]) -> bool:
        return selectors.blocks_among(user, others)

    def avoided_querysets(self, user: User) -> list[QuerySet[Any, Any]]:
        return list(selectors.avoided_querysets(user))

    def friend_ids(self, user: User) -> set[int]:
        return selectors.friend_ids(user)

    def relation(self, viewer: User, other: User) -> dict[str, bool]:
        return selectors.relation(viewer, other)

    def invitations_for(self, user: User) -> list[Invitation]:
        return selectors.invitations_for(user)
