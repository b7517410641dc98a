"""Penalty points and final places."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import WILD_RANK, parse_face


def face_penalty(face: str) -> int:
    """Penalty of one face under the ``bga`` table: ? 15, 1-9 face value, 10 is 15, 11-13 are 10.

    >>> [face_penalty(f) for f in ["?", "1M", "9A", "10Y", "13I"]]
    [15, 1, 9, 15, 10]
    """
    rank, _ = parse_face(face)
    if rank == WILD_RANK:
        return 15
    if rank == 10:
        return 15
    if rank > 10:
        return 10
    return rank


def hand_penalty(faces: Sequence[str]) -> int:
    """Penalty of a hand of faces.

    >>> hand_penalty(["?", "10M", "3A"])
    33
    """
    return sum(face_penalty(f) for f in faces)


def cards_penalty(card_ids: Sequence[str]) -> int:
    """Penalty of a hand of card ids (deck prefix + face)."""
    return sum(face_penalty(c[1:]) for c in card_ids)


def places(totals: Sequence[int], rounds_out: Sequence[int], use_rounds_out: bool) -> list[int]:
    """1-based places: lowest total first; ties broken by more rounds gone out, else shared.

    >>> places([50, 40, 50], [2, 1, 3], True)
    [3, 1, 2]
    >>> places([50, 40, 50], [2, 1, 2], True)
    [2, 1, 2]
    """

    def key(seat: int) -> tuple[int, int]:
        return (totals[seat], -rounds_out[seat] if use_rounds_out else 0)

    return [
        1 + sum(1 for other in range(len(totals)) if key(other) < key(s))
        for s in range(len(totals))
    ]
