"""The rules of a table in a page's words: each round's contract and deal, the penalty points
of every rank, the buy limit. The table page's "?" panel shows this, so that no rule is written
again in JavaScript.
"""

from __future__ import annotations

from typing import Any

from .cards import WILD_RANK
from .rulesets import get_ruleset
from .scoring import PENALTY_TABLES


def rules_summary(ruleset: str, options: dict | None = None) -> dict[str, Any]:
    """What the "?" panel of a table shows.

    >>> s = rules_summary("bga")
    >>> s["rounds"][0], s["penalties"]["wild"], s["penalties"]["ranks"][9]
    ({'round': 1, 'contracts': ['2 books'], 'dealt': 6, 'final_discard': True}, 15, {'rank': 10, 'label': '10', 'points': 15})
    >>> rules_summary("rook")["penalties"]["wild"]
    1
    """
    rules = get_ruleset(ruleset)
    opts = options or {}
    points = PENALTY_TABLES[rules.penalties]
    suit = rules.cards.suits[0]
    return {
        "ruleset": rules.name,
        "description": rules.description,
        "rounds": [
            {
                "round": r,
                "contracts": [c.describe() for c in rules.contract_choices(r, opts)],
                "dealt": rules.deal_sizes[r - 1],
                "final_discard": r not in rules.no_final_discard_rounds,
            }
            for r in range(1, rules.rounds + 1)
        ],
        "penalties": {
            "wild": points((WILD_RANK, "?")),
            "ranks": [
                {"rank": r, "label": tok, "points": points((r, suit))}
                for r, tok in enumerate(rules.cards.rank_tokens, start=1)
            ],
        },
        "max_buys": rules.max_buys_per_round,
        "mayi_melds": rules.mayi_melds,
        "mayi_meld_score": rules.mayi_meld_score,
        "lay_off_on_lay_down_turn": rules.lay_off_on_lay_down_turn,
    }
