"""A deterministic random stream keyed by the game's seed.

Every shuffle draws from SHA-256 in counter mode over the seed, so a replay from the seed is
exact and no observed card order predicts the next one. The counter lives in the game state.
"""

from __future__ import annotations

import hashlib

_sha256 = hashlib.sha256


# n -> the largest multiple of n up to 2**64: the rejection limit (every shuffle asks for
# the same few n).
_LIMITS: dict[int, int] = {}


def _limit(n: int) -> int:
    limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
    return limit


class SeededStream:
    """Random integers from ``SHA-256(seed || counter)``; ``counter`` is saved with the state.

    >>> a = SeededStream("s", 0); b = SeededStream("s", 0)
    >>> [a.below(100) for _ in range(3)] == [b.below(100) for _ in range(3)]
    True
    """

    def __init__(self, seed: str, counter: int) -> None:
        self._key = seed.encode()
        self._prefix = self._key + b":"
        self.counter = counter

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; rejection sampling keeps it unbiased."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _LIMITS.get(n) or _limit(n)
        while True:
            digest = _sha256(b"%s%d" % (self._prefix, self.counter)).digest()
            self.counter += 1
            value = int.from_bytes(digest[:8])  # big-endian; below the limit but rarely
            if value < limit:
                return value % n
            for offset in range(8, 32, 8):
                value = int.from_bytes(digest[offset : offset + 8])
                if value < limit:
                    return value % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
