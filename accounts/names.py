"""Usernames that look alike: ``h_аlice`` (a Cyrillic а) beside ``h_alice`` is another person
to the site and the same one to every player.

A name's *skeleton* is what it looks like, after Unicode's NFKC (``ｈ`` is ``h``) and the
confusables data of Unicode's UTS #39 (confusable-homoglyphs: a Cyrillic ``а`` is a Latin
``a``), then the look-alikes within Latin letters and digits (``I``, ``1`` and ``l``; ``0`` and
``o``; ``rn`` and ``m``; ``vv`` and ``w``) and case. Sign-up refuses a name whose skeleton is
an existing user's (accounts/views.py), and names that start like the ones deleted accounts
are given (``deleted-<n>``).

Each user's skeleton is stored, indexed (``NameSkeleton``), so the check is one lookup whatever
the number of players: ``on_user_saved`` keeps it when a user is made or renamed through
``save()``, and code that renames with ``QuerySet.update`` (an account's deletion) calls
``skeleton_store`` itself.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

from confusable_homoglyphs import confusables

from accounts.models import NameSkeleton

DELETED_PREFIX = "deleted-"
# Within Latin: the ones UTS #39 leaves alone or maps to a capital, applied before case folding
# so that "I" (capital i) reads as "l" while "i" stays "i".
LATIN_LOOKALIKES = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "o", "O": "o"})
SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))


@functools.lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    """The Latin letter or digit ``char`` is confusable with, or ``char`` itself."""
    if char.isascii():
        return char
    found = confusables.is_confusable(char, greedy=True)
    for entry in found or ():
        for glyph in entry["homoglyphs"]:
            if glyph["c"].isascii():
                return str(glyph["c"])
    return char


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing. ``skeleton("h_аlice") == skeleton("h_alice")``."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(_latin(char) for char in text)
    text = text.translate(LATIN_LOOKALIKES).casefold()
    for pair, single in SEQUENCES:
        text = text.replace(pair, single)
    return text


def lookalike_of(name: str) -> str | None:
    """An existing user's name that looks like ``name`` (not ``name`` itself), or None: one
    lookup on the stored skeletons' index."""
    other = (
        NameSkeleton.objects.filter(skeleton=skeleton(name))
        .exclude(user__username=name)
        .order_by("user_id")
        .values_list("user__username", flat=True)
        .first()
    )
    return None if other is None else str(other)


def skeleton_store(*, user_id: int, username: str) -> None:
    """Store (or replace) the skeleton of user ``user_id``'s name ``username``."""
    NameSkeleton.objects.update_or_create(
        user_id=user_id, defaults={"skeleton": skeleton(username)}
    )


def on_user_saved(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """``post_save`` of the user model (connected in accounts/apps.py). A save that names its
    fields without the username (a sign-in's last_login, a password) cannot have renamed."""
    if kwargs.get("raw"):
        return
    if not created and update_fields is not None and "username" not in update_fields:
        return
    skeleton_store(user_id=instance.pk, username=instance.get_username())


def reserved(name: str) -> bool:
    """Names only the site gives: a deleted account's."""
    return skeleton(name).startswith(skeleton(DELETED_PREFIX))
