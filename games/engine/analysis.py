"""The analysis of a decision: every choice a seat had, weighed by determinized playouts.

``analyse_decision(state, seat, samples=, seed=)`` answers for the decision ``seat`` makes in
``state`` (``decision_kind``), from that seat's information only: ``samples`` times, the
cards it cannot see are dealt again consistently with what it could know, and every choice
is played out to the round's end by a fast policy (``bots/playout.py``); a choice's ``cost``
is its mean score for the round minus the best choice's (0 for the best), with a 95% interval
over the paired samples. docs/ANALYSIS.md gives the method and how the site labels a cost.

``analysis_choice(state, seat, action)`` finds, among the choices, the one an action a player
made (as the move log records it) was: the site reads that choice's cost.

>>> from games.engine.state import new_game
>>> st = new_game(4, "doc")
>>> decision_kind(st, st["active"])
'draw'
>>> result = analyse_decision(st, st["active"], samples=2, seed="doc")
>>> sorted(c["action"]["source"] for c in result["choices"]), result["samples"]
(['discard', 'stock'], 2)
>>> analysis_choice(st, st["active"], {"type": "draw", "source": "stock"})
{'type': 'draw', 'source': 'stock'}
"""

from __future__ import annotations

import statistics

from .bots.search import choice_of, decision_choices, paired_interval, weigh
from .state import State

# Bumped whenever a change would change an analysis (the choices, the playouts' policy, the
# sampling, the summary): the site re-runs results stored under an older version.
ANALYSIS_VERSION = 2

__all__ = [
    "ANALYSIS_VERSION",
    "analyse_decision",
    "analysis_choice",
    "decision_analysis",
    "decision_kind",
]


def decision_kind(state: State, seat: int) -> str | None:
    """``"draw"``, ``"buy"``, ``"discard"``, ``"lay_down"``, ``"lay_off"``, or ``None`` when
    ``seat`` has no decision to weigh in ``state`` (not its turn, nothing to answer, only one
    choice, the game over)."""
    found = decision_choices(state, seat)
    return None if found is None else found[0]


def decision_analysis(state: State, seat: int, *, samples: int, seed: str) -> dict:
    """:func:`analyse_decision`'s answer with the means: ``"kind"``, ``"expected"`` (the best
    choice's mean score for the round: the seat's expected penalty, MAYI melds counted) and
    each choice's ``"mean"``. Raises ``ValueError`` when the seat has no decision to weigh."""
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
        raise ValueError("samples must be a positive integer")
    if not isinstance(seed, str):
        raise ValueError("seed must be a string")
    found = decision_choices(state, seat)
    if found is None:
        raise ValueError(f"seat {seat} has no decision to analyse in this state")
    kind, choices = found
    scores = weigh(state, seat, choices, samples, f"analysis:{seed}:{seat}:{state['moves']}")
    means = [statistics.fmean(s) for s in scores]
    best = min(range(len(choices)), key=lambda c: (means[c], c))
    out = []
    for c, choice in enumerate(choices):
        if c == best:
            cost = low = high = 0.0
        else:
            diffs = [a - b for a, b in zip(scores[c], scores[best], strict=True)]
            cost, low, high = paired_interval(diffs)
        out.append(
            {
                "action": choice,
                "cost": round(cost, 2),
                "low": round(low, 2),
                "high": round(high, 2),
                "mean": round(means[c], 2),
            }
        )
    return {
        "kind": kind,
        "choices": out,
        "best": choices[best],
        "samples": samples,
        "expected": round(means[best], 2),
    }


def analyse_decision(state: State, seat: int, *, samples: int, seed: str) -> dict:
    """``{"choices": [{"action", "cost", "low", "high"}], "best": action, "samples": n}`` for
    the decision ``seat`` makes in ``state``, weighed on ``samples`` determinizations drawn
    from ``seed`` (the same seed, the same answer). Only the seat's information is read.
    Raises ``ValueError`` when the seat has no decision to weigh (``decision_kind`` None)."""
    full = decision_analysis(state, seat, samples=samples, seed=seed)
    return {
        "choices": [{k: c[k] for k in ("action", "cost", "low", "high")} for c in full["choices"]],
        "best": full["best"],
        "samples": full["samples"],
    }


def analysis_choice(state: State, seat: int, action: dict) -> dict | None:
    """The choice of :func:`analyse_decision` that ``action`` (made by ``seat`` in ``state``,
    as the move log records it) was, equal to it by ``==``; ``None`` when the action is none of
    them (a MAYI meld, a wild swap, a pass, a platform move, or no decision to weigh).

    A discard or a lay-off is its card's face; any lay-down is the lay-down choice; ending the
    turn (a discard or a pass) where a lay-down or a lay-off was possible is ``WAIT`` or
    ``KEEP``; rook's "May I?" of the active seat before its draw takes the discard."""
    if not isinstance(action, dict):
        return None
    found = decision_choices(state, seat)
    if found is None:
        return None
    kind, choices = found
    return choice_of(kind, choices, action)
