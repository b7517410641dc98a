"""Penalty points and final places."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import WILD_RANK, Parsed, parse_card, parse_face

# The ``bga`` penalty table (docs/RULES.md section 7), the one place it is written: the wild
# 15, 1-9 their number, 10 is 15, 11-13 are 10. The contract solver's "lay down the most
# penalty" reads it too (columns.py).
BGA_WILD_PENALTY = 15


def bga_rank_penalty(rank: int) -> int:
    """The ``bga`` penalty of a card of this rank (``WILD_RANK``: the wild).

    >>> [bga_rank_penalty(r) for r in (WILD_RANK, 1, 9, 10, 13)]
    [15, 1, 9, 15, 10]
    """
    if rank == WILD_RANK:
        return BGA_WILD_PENALTY
    return 15 if rank == 10 else 10 if rank > 10 else rank


def face_penalty(face: str) -> int:
    """Penalty of one face under the ``bga`` table.

    >>> [face_penalty(f) for f in ["?", "1M", "9A", "10Y", "13I"]]
    [15, 1, 9, 15, 10]
    """
    return bga_rank_penalty(parse_face(face)[0])


def hand_penalty(faces: Sequence[str]) -> int:
    """Penalty of a hand of faces.

    >>> hand_penalty(["?", "10M", "3A"])
    33
    """
    return sum(face_penalty(f) for f in faces)


def _bga(parsed: Parsed) -> int:
    return bga_rank_penalty(parsed[0])


def _standard(parsed: Parsed) -> int:
    """petras and classic: joker 25, ace 15, K Q J 10, numerals their face value."""
    rank = parsed[0]
    return 25 if rank == WILD_RANK else 15 if rank == 1 else 10 if rank > 10 else rank


def _one_each(parsed: Parsed) -> int:
    """rook: every card left in hand is one point."""
    return 1


# The penalty tables a ruleset names (RuleSet.penalties).
PENALTY_TABLES = {"bga": _bga, "standard": _standard, "one_each": _one_each}


def cards_penalty(card_ids: Sequence[str], table: str = "bga") -> int:
    """Penalty of a hand of card ids (deck prefix + face) under a named table.

    >>> cards_penalty(["w?", "w10M"]), cards_penalty(["p*R", "pAS", "pKH", "p7C"], "standard")
    (30, 57)
    >>> cards_penalty(["x*", "x14R"], "one_each")
    2
    """
    points = PENALTY_TABLES[table]
    return sum(points(parse_card(c)) for c in card_ids)


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
