"""Rulesets as data.

Each ruleset is one :class:`RuleSet` value; the state machine reads its fields instead of
testing the ruleset's name, so a variant is added by describing it here (and, where a rule is
really new, by a small named policy), not by ``if`` chains through the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import decks_for


@dataclass(frozen=True)
class Contract:
    books: int
    runs: int

    def describe(self) -> str:
        parts = []
        if self.books:
            parts.append(f"{self.books} book{'s' if self.books > 1 else ''}")
        if self.runs:
            parts.append(f"{self.runs} run{'s' if self.runs > 1 else ''}")
        return " + ".join(parts)


BGA_CONTRACTS = (
    Contract(2, 0),
    Contract(1, 1),
    Contract(0, 2),
    Contract(3, 0),
    Contract(2, 1),
    Contract(1, 2),
    Contract(0, 3),
)


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    min_players: int
    max_players: int
    contracts: tuple[Contract, ...]
    deal_sizes: tuple[int, ...]
    # Round numbers (1-based) in which a player may never discard the last card in hand.
    no_final_discard_rounds: frozenset[int] = field(default_factory=frozenset)
    lay_off_on_lay_down_turn: bool = True
    max_buys_per_round: int | None = 3
    penalty_cards_per_buy: int = 1
    mayi_melds: bool = True
    mayi_meld_score: int = -10
    mayi_meld_replacements: int = 4
    # Ties after the last round: broken by rounds gone out, else shared.
    ties_broken_by_rounds_out: bool = True
    # How many times the stock may be rebuilt from the discard pile in one round.
    reshuffles_per_round: int = 1
    # Engine options a table may set for this ruleset (besides never_buy).
    option_names: frozenset[str] = field(default_factory=frozenset)

    def decks(self, players: int) -> int:
        return decks_for(players)

    def contract(self, round_no: int) -> Contract:
        return self.contracts[round_no - 1]

    def deal_size(self, round_no: int) -> int:
        return self.deal_sizes[round_no - 1]

    @property
    def rounds(self) -> int:
        return len(self.contracts)


BGA = RuleSet(
    name="bga",
    description="Board Game Arena rules: MAYI letters, MAYI melds for -10, 3 buys a round.",
    min_players=3,
    max_players=8,
    contracts=BGA_CONTRACTS,
    deal_sizes=(6, 7, 8, 9, 10, 11, 12),
    no_final_discard_rounds=frozenset({7}),
)

RULESETS: dict[str, RuleSet] = {BGA.name: BGA}


def get_ruleset(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}"
        ) from None
