"""Rulesets as data.

Each ruleset is one :class:`RuleSet` value; the state machine reads its fields instead of
testing the ruleset's name, so a variant is added by describing it here (and, where a rule is
really new, by a small named policy), not by ``if`` chains through the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cards import BGA_CARDS, ROOK_CARDS, STANDARD_CARDS, CardSet


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
    """One ruleset: data the engine reads, never a name it tests.

    Each field answers one row of docs/RULES.md section 9; the policies with more than two values
    are small named strings whose meaning is documented here and implemented in one place.
    """

    name: str
    description: str
    min_players: int
    max_players: int
    contracts: tuple[Contract, ...]
    deal_sizes: tuple[int, ...]
    cards: CardSet = BGA_CARDS
    # (from this many players, decks): the last row whose threshold is met applies.
    packs: tuple[tuple[int, int], ...] = ((3, 2), (7, 3))
    # Other contracts a round also accepts, e.g. rook's round 7 "4 books" beside "3 runs"; a
    # table picks with the option ``round7`` (see ``contract_choices``).
    alternatives: tuple[tuple[int, Contract], ...] = ()
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
    # How many times the stock may be rebuilt from the discard pile in one round (None: as
    # long as there is a pile to rebuild it from).
    reshuffles_per_round: int | None = 1
    # Engine options a table may set for this ruleset (besides never_buy): name -> values,
    # the first being the default.
    options: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Buying. sale_first: the active player's stock draw only declares the decline; the sale
    # (if any) happens, then the draw completes. sale_chain: after a sale the uncovered card
    # is offered again (a new window). no_successive_buys: the buyer of a card may not buy
    # the card its sale uncovered. claim: "priority" (the eligible seat nearest the active
    # player wins) or "first_caller" (the earliest "May I?" wins; the active player decides
    # by drawing: the discard to take it, the stock to let the caller buy). discarder_may_claim:
    # the seat that discarded a card may call for it too.
    sale_first: bool = False
    sale_chain: bool = False
    no_successive_buys: bool = False
    claim: str = "priority"
    discarder_may_claim: bool = False
    # petras: a purchase whose penalty card cannot be supplied (after rebuilding the stock)
    # is not completed; elsewhere the buyer takes the card and the round ends on the stock.
    sale_needs_penalty: bool = False
    # rook: a tabled wild may be swapped for the natural card it stands for.
    wild_swaps: bool = False
    # End of round. "first_out": the first empty hand ends it; "last_turns": everyone else
    # plays one more turn first (rook).
    round_end: str = "first_out"
    # petras: the round is won by emptying the hand with the final discard, so a lay-down or
    # lay-off may not leave the hand empty.
    out_by_discard_only: bool = False
    # The penalty table (scoring.PENALTY_TABLES).
    penalties: str = "bga"

    @property
    def option_names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.options)

    def vet_options(self, options: dict) -> str | None:
        """Why these table options are refused, or ``None`` when they are fine."""
        allowed = dict(self.options)
        for name, value in options.items():
            if name in allowed and value not in allowed[name]:
                return f"{name} must be one of {', '.join(allowed[name])}, not {value!r}"
        return None

    def option(self, options: dict, name: str) -> str:
        return options.get(name, dict(self.options)[name][0])

    def decks(self, players: int) -> int:
        """How many decks (packs) a table of this size plays with.

        >>> BGA.decks(6), BGA.decks(7), CLASSIC.decks(5), CLASSIC.decks(8), ROOK.decks(2)
        (2, 3, 3, 4, 2)
        """
        return [d for least, d in self.packs if players >= least][-1]

    def contract(self, round_no: int) -> Contract:
        return self.contracts[round_no - 1]

    def contract_choices(self, round_no: int, options: dict | None = None) -> tuple[Contract, ...]:
        """The contracts a lay-down may make this round, under the table's options.

        >>> [c.describe() for c in ROOK.contract_choices(7)]
        ['3 runs', '4 books']
        >>> [c.describe() for c in ROOK.contract_choices(7, {"round7": "books"})]
        ['4 books']
        """
        usual = self.contract(round_no)
        if not self.alternatives:
            return (usual,)
        others = tuple(c for r, c in self.alternatives if r == round_no)
        if not others:
            return (usual,)
        pick = self.option(options or {}, "round7")
        if pick == "runs":
            return (usual,)
        if pick == "books":
            return others
        return (usual, *others)

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

STANDARD_DEALS = (10, 10, 10, 12, 12, 12, 12)
# The variants' seeds rebuild the stock as often as it runs out, so a round whose last cards
# are stuck in hands (nobody can meld or lay them off) would never end. Platform decision: the
# sixth time the stock runs out in a round, the round ends as if no draw were left (no
# winner, everyone counts their hand). With 2+ packs that only happens in such a stalemate.
STALEMATE_RESHUFFLES = 5

PETRAS = RuleSet(
    name="petras",
    description="Greg Petras: standard cards with jokers, 10/12 cards, no buy cap, no lay-off "
    "the turn you open, a final discard to go out.",
    min_players=3,
    max_players=6,
    contracts=BGA_CONTRACTS,
    deal_sizes=STANDARD_DEALS,
    cards=STANDARD_CARDS,
    packs=((3, 2), (5, 3)),
    lay_off_on_lay_down_turn=False,
    max_buys_per_round=None,
    mayi_melds=False,
    ties_broken_by_rounds_out=False,
    reshuffles_per_round=STALEMATE_RESHUFFLES,
    sale_first=True,
    sale_chain=True,
    no_successive_buys=True,
    sale_needs_penalty=True,
    out_by_discard_only=True,
    penalties="standard",
)

# Classic differs from Petras only where docs/RULES.md section 9 says so: players and packs, a
# purchase completes even without a penalty card, and a player may go out without a discard.
CLASSIC = replace(
    PETRAS,
    name="classic",
    description="Classic May I?: standard cards with jokers, a pack per 2 players, 10/12 cards, "
    "no buy cap, no lay-off the turn you meld.",
    max_players=8,
    packs=((3, 2), (5, 3), (7, 4)),
    sale_needs_penalty=False,
    out_by_discard_only=False,
)

ROOK = RuleSet(
    name="rook",
    description="Family Rook-deck rules: anyone calls May I?, the player to move decides, wilds "
    "swap out, last turns for all, 1 point a card.",
    min_players=2,
    max_players=8,
    contracts=BGA_CONTRACTS,
    deal_sizes=(6, 7, 8, 9, 10, 11, 12),
    cards=ROOK_CARDS,
    packs=((2, 2), (6, 3)),
    alternatives=((7, Contract(4, 0)),),
    options=(("round7", ("choice", "runs", "books")),),
    lay_off_on_lay_down_turn=False,
    max_buys_per_round=None,
    mayi_melds=False,
    ties_broken_by_rounds_out=False,
    reshuffles_per_round=STALEMATE_RESHUFFLES,
    sale_first=True,
    claim="first_caller",
    discarder_may_claim=True,
    wild_swaps=True,
    round_end="last_turns",
    penalties="one_each",
)

RULESETS: dict[str, RuleSet] = {r.name: r for r in (BGA, PETRAS, CLASSIC, ROOK)}


def get_ruleset(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}"
        ) from None
