"""Deals anyone can verify: the seed's commitment, and a game rebuilt from its seed and moves.

The scheme (README, "Deals anyone can verify"): when a game starts the site publishes
``SHA-256(seed)`` (hex of the digest of the seed's UTF-8 bytes); the seed itself stays secret
until the game is over, then it is revealed. Every shuffle of the game draws from
``SHA-256(seed ":" counter)`` (``rng.py``), so the seed fixes every deal and every rebuilt
stock: with the seed and the move log anyone can deal the game again and compare.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove
from .records import initial_state, replay
from .state import State


def seed_commitment(seed: str) -> str:
    """The published commitment to a seed.

    >>> seed_commitment("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(seed.encode()).hexdigest()


def deal_fingerprint(state: State) -> str:
    """SHA-256 of a round's deal as dealt: every hand, the turned-up card and the stock order.

    >>> from .state import new_game
    >>> deal_fingerprint(new_game(3, "x")) == deal_fingerprint(new_game(3, "x"))
    True
    """
    deal = {"hands": state["hands"], "discard": state["discard"], "stock": state["stock"]}
    return hashlib.sha256(json.dumps(deal, separators=(",", ":")).encode()).hexdigest()


@dataclass
class Verification:
    """What checking a finished game found."""

    seed: str
    commitment: str
    commitment_ok: bool
    replay_ok: bool
    problem: str | None = None
    deals: list[dict[str, Any]] = field(default_factory=list)  # per round: number, fingerprint

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.replay_ok


def verify_game(
    final: State, actions: Iterable[tuple[int | None, dict]], published: str | None = None
) -> Verification:
    """Deal the game again from the seed in ``final``, apply the move log, and compare: the
    rebuilt state must equal ``final`` card for card, and ``published`` (the commitment shown
    while the game was played; ``None``: not checked) must be SHA-256 of the seed.

    >>> from .state import new_game
    >>> st = new_game(3, "verify")
    >>> verify_game(st, [], seed_commitment("verify")).ok
    True
    >>> verify_game(st, [], seed_commitment("another")).commitment_ok
    False
    """
    return verify_replayed(final, replay(initial_state(final), actions), published)


def verify_replayed(
    final: State, steps: Iterable[tuple[State, list[dict]]], published: str | None = None
) -> Verification:
    """As :func:`verify_game`, from the game already replayed from its seed (``steps``: what
    :func:`records.replay` yields), for a caller that walks the replay itself."""
    seed = final["seed"]
    commitment = seed_commitment(seed)
    out = Verification(
        seed=seed,
        commitment=commitment,
        commitment_ok=published is None or published == commitment,
        replay_ok=False,
    )
    start = state = initial_state(final)
    out.deals.append({"round": start["round"], "fingerprint": deal_fingerprint(start)})
    try:
        for state, events in steps:
            if any(e.get("type") == "round_started" for e in events):
                out.deals.append({"round": state["round"], "fingerprint": deal_fingerprint(state)})
    except IllegalMove as exc:
        out.problem = f"the move log does not replay from this seed: {exc}"
        return out
    if state != final:
        differ = sorted(k for k in set(state) | set(final) if state.get(k) != final.get(k))
        out.problem = f"the rebuilt game differs from the stored one in {', '.join(differ)}"
        return out
    out.replay_ok = True
    return out
