"""What the rules pages say, read from the engine's ruleset data (games/engine/rulesets.py).

Nothing here restates a rule: contracts, deals, packs, buys, penalties and every variant
difference come from the :class:`RuleSet` and its :class:`CardSet`, so the pages follow the
engine when a ruleset changes. The templates only put the values into sentences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import RULESETS, WILD_RANK, CardSet, RuleSet, cards_penalty, face_data

# The order a visitor meets the rulesets: the default first.
ORDER = ("bga", "petras", "classic", "rook")
TITLES = {
    "bga": "Board Game Arena rules",
    "petras": "Greg Petras's variant",
    "classic": "Classic May I?",
    "rook": "Family rules with a Rook deck",
}


@dataclass(frozen=True)
class Card:
    """A card as the pages draw it: the engine's face data."""

    label: str
    suit: str | None
    color: str | None
    wild: bool
    # The engine's id ("w7M"): static/js/rules.js draws the table page's card from it.
    id: str = ""


@dataclass(frozen=True)
class RoundRow:
    number: int
    contract: str
    dealt: int
    no_final_discard: bool


@dataclass(frozen=True)
class PenaltyRow:
    cards: str
    points: int | None


def ruleset_names() -> list[str]:
    known = [n for n in ORDER if n in RULESETS]
    return known + sorted(n for n in RULESETS if n not in known)


def card(card_id: str) -> Card:
    data = face_data(card_id)
    return Card(data["label"], data["suit"], data["color"], data["wild"], card_id)


def _natural(cs: CardSet, rank: int, suit_index: int = 0, deck: int = 0) -> str:
    return f"{cs.prefixes[deck]}{cs.rank_tokens[rank - 1]}{cs.suits[suit_index]}"


def _wild(cs: CardSet) -> str:
    return cs.prefixes[0] + cs.wild_faces[0]


def examples(cs: CardSet) -> dict[str, list[Card]]:
    """Example melds drawn in the card set: a book, a run, a run with a wild, a MAYI meld."""
    return {
        "book": [card(_natural(cs, 7, i)) for i in range(3)],
        "run": [card(_natural(cs, r, 1)) for r in range(4, 8)],
        "wild_run": [
            card(_natural(cs, 9, 2)),
            card(_wild(cs)),
            card(_natural(cs, 11, 2)),
            card(_natural(cs, 12, 2)),
        ],
        "wild_book": [card(_natural(cs, 5, 0)), card(_natural(cs, 5, 3)), card(_wild(cs))],
        "mayi_same": [card(_natural(cs, 8, i)) for i in range(4)],
        "mayi_run": [card(_natural(cs, r, i)) for i, r in enumerate((4, 3, 6, 5))],
    }


def penalty_rows(rules: RuleSet) -> list[PenaltyRow]:
    """The penalty of each card left in hand, from the ruleset's penalty table; neighbouring
    ranks that score alike share a row ("2 to 9: the number on the card" reads better than
    8 rows). ``points`` None means "the number on the card"."""
    cs = rules.cards
    scored = [
        (r, cards_penalty([_natural(cs, r)], rules.penalties)) for r in range(1, cs.ranks + 1)
    ]
    if len({points for _, points in scored}) == 1:
        rows = [
            PenaltyRow(f"every card, {cs.rank_tokens[0]} to {cs.rank_tokens[-1]}", scored[0][1])
        ]
    else:
        # A rank scores its number, or a fixed number of points; runs of either share a row.
        def kind(rank: int, points: int) -> int | None:
            return None if points == rank else points

        rows = []
        i = 0
        while i < len(scored):
            j = i
            while j + 1 < len(scored) and kind(*scored[j + 1]) == kind(*scored[i]):
                j += 1
            first, last = cs.rank_tokens[scored[i][0] - 1], cs.rank_tokens[scored[j][0] - 1]
            text = first if i == j else f"{first} to {last}"
            rows.append(PenaltyRow(text, kind(*scored[i])))
            i = j + 1
    labels = sorted({face_data(cs.prefixes[0] + w)["label"] for w in _wild_faces(cs)})
    rows.append(
        PenaltyRow(" or ".join(labels) + " (wild)", cards_penalty([_wild(cs)], rules.penalties))
    )
    return rows


def _wild_faces(cs: CardSet) -> list[str]:
    return list(cs.wild_faces) + [face for face, _ in cs.extra_wilds]


def packs_text(rules: RuleSet) -> list[str]:
    """ "3 to 6 players: 2 packs" lines from the ruleset's pack thresholds."""
    lines = []
    thresholds = list(rules.packs)
    for i, (least, decks) in enumerate(thresholds):
        low = max(least, rules.min_players)
        high = thresholds[i + 1][0] - 1 if i + 1 < len(thresholds) else rules.max_players
        if low > high:
            continue
        players = f"{low} players" if low == high else f"{low} to {high} players"
        lines.append(f"{players}: {decks} packs")
    return lines


def deck_size(cs: CardSet) -> int:
    return len(cs.make_deck(cs.prefixes[0]))


def suit_cards(cs: CardSet) -> list[Card]:
    """One card of each suit (letter, colour), the 1 of each, to show what the suits are."""
    return [card(_natural(cs, 1, i)) for i in range(len(cs.suits))]


def wild_cards(cs: CardSet) -> list[Card]:
    return [card(cs.prefixes[0] + face) for face in _wild_faces(cs)]


def rounds(rules: RuleSet) -> list[RoundRow]:
    rows = []
    for number in range(1, rules.rounds + 1):
        choices = rules.contract_choices(number)
        rows.append(
            RoundRow(
                number=number,
                contract=" or ".join(c.describe() for c in choices),
                dealt=rules.deal_size(number),
                no_final_discard=number in rules.no_final_discard_rounds,
            )
        )
    return rows


def page(name: str) -> dict[str, Any]:
    """Everything the page of one ruleset shows, from the engine's data."""
    rules = RULESETS[name]
    cs = rules.cards
    return {
        "name": name,
        "title": TITLES.get(name, name),
        "rules": rules,
        "cards": cs,
        "deck_size": deck_size(cs),
        "suits": suit_cards(cs),
        "suit_names": [cs.suit_symbols[s] for s in cs.suits],
        "wilds": wild_cards(cs),
        "lowest": cs.rank_tokens[0],
        "highest": cs.rank_tokens[-1],
        "ace_high": cs.ace_high,
        "packs": packs_text(rules),
        "rounds": rounds(rules),
        "penalties": penalty_rows(rules),
        "examples": examples(cs),
        "wild_rank": WILD_RANK,
        "options": {opt: values for opt, values in rules.options},
    }


def deals_text(rules: RuleSet) -> str:
    """ "6 in round 1, one more each round to 12 in round 7", or "10 in rounds 1-3, 12 in
    rounds 4-7", from the ruleset's deal sizes."""
    sizes = rules.deal_sizes
    if all(b == a + 1 for a, b in zip(sizes, sizes[1:], strict=False)):
        return (
            f"{sizes[0]} cards in round 1, one more each round, {sizes[-1]} in round {len(sizes)}"
        )
    parts = []
    start = 0
    for i in range(1, len(sizes) + 1):
        if i == len(sizes) or sizes[i] != sizes[start]:
            rounds_text = f"round {start + 1}" if i - 1 == start else f"rounds {start + 1} to {i}"
            parts.append(f"{sizes[start]} cards in {rounds_text}")
            start = i
    return ", ".join(parts)


def _card_set_text(rules: RuleSet) -> str:
    cs = rules.cards
    wilds = " and ".join(sorted({c.label for c in wild_cards(cs)}))
    return (
        f"{len(cs.suits)} suits of {cs.ranks} cards ({cs.rank_tokens[0]} to {cs.rank_tokens[-1]}) "
        f"and {wilds} as wild cards"
    )


# One sentence per RuleSet field, for the "how this variant differs" list: each reads the
# field's value, so it stays true when the data changes.
_SENTENCES: dict[str, Any] = {
    "cards": lambda r: f"Cards: {_card_set_text(r)}.",
    "min_players": lambda r: f"From {r.min_players} to {r.max_players} players.",
    "max_players": lambda r: f"From {r.min_players} to {r.max_players} players.",
    "deal_sizes": lambda r: f"Dealt: {deals_text(r)}.",
    "packs": lambda r: "Packs: " + "; ".join(packs_text(r)) + ".",
    "alternatives": lambda r: (
        "Round 7: "
        + " or ".join(c.describe() for c in r.contract_choices(7))
        + " (a table option: each player's choice, or one for all)."
    ),
    "no_final_discard_rounds": lambda r: (
        "Every round ends with a final discard as usual, round 7 included."
        if not r.no_final_discard_rounds
        else "No final discard in round "
        + ", ".join(str(n) for n in sorted(r.no_final_discard_rounds))
        + "."
    ),
    "lay_off_on_lay_down_turn": lambda r: (
        "You may lay off on the turn you lay down your contract."
        if r.lay_off_on_lay_down_turn
        else "You may not lay off on the turn you lay down your contract: wait for your next turn."
    ),
    "max_buys_per_round": lambda r: (
        "No limit to the number of buys in a round."
        if r.max_buys_per_round is None
        else f"At most {r.max_buys_per_round} buys per player each round."
    ),
    "mayi_melds": lambda r: (
        "MAYI melds score at once." if r.mayi_melds else "There are no MAYI melds."
    ),
    "ties_broken_by_rounds_out": lambda r: (
        "A tie goes to the player who went out in more rounds."
        if r.ties_broken_by_rounds_out
        else "Players who tie share the place."
    ),
    "reshuffles_per_round": lambda r: (
        "The stock is rebuilt from the discard pile once a round; if it runs out again the round "
        "ends with nobody out."
        if r.reshuffles_per_round == 1
        else f"The stock is rebuilt from the discard pile up to {r.reshuffles_per_round} times a "
        "round; after that the round ends with nobody out."
    ),
    "sale_first": lambda r: (
        "When the player to move passes up the discard, any sale happens first, and then that "
        "player draws from the stock."
        if r.sale_first
        else "The player to move draws from the stock first, then the discard is sold."
    ),
    "sale_chain": lambda r: (
        "After a sale the card uncovered on the pile is offered too." if r.sale_chain else ""
    ),
    "no_successive_buys": lambda r: (
        "A buyer may not also buy the card their purchase uncovered."
        if r.no_successive_buys
        else ""
    ),
    "claim": lambda r: (
        "Anyone may call “May I?”, even on their own turn; the player to move decides: take the "
        "card, or let the first caller buy it."
        if r.claim == "first_caller"
        else "When several players want the card, the one nearest the player to move wins."
    ),
    "discarder_may_claim": lambda r: (
        "The player who discarded a card may call for it again." if r.discarder_may_claim else ""
    ),
    "sale_needs_penalty": lambda r: (
        "A purchase whose penalty card cannot be dealt, even after rebuilding the stock, does "
        "not happen."
        if r.sale_needs_penalty
        else ""
    ),
    "wild_swaps": lambda r: (
        "A wild on the table may be swapped for the card it stands for, by a player whose "
        "contract is down (or goes down that turn); the wild must be played that turn."
        if r.wild_swaps
        else "Wilds on the table stay where they are."
    ),
    "round_end": lambda r: (
        "When a player goes out, everyone else plays one last turn before the round is scored."
        if r.round_end == "last_turns"
        else "The round ends the moment a player goes out."
    ),
    "out_by_discard_only": lambda r: (
        "You go out only with a final discard: a lay-down or lay-off may not empty your hand."
        if r.out_by_discard_only
        else ""
    ),
    "penalties": lambda r: (
        "Cards left in hand score: "
        + "; ".join(
            f"{row.cards}: {'the number on the card' if row.points is None else points(row.points)}"
            for row in penalty_rows(r)
        )
        + "."
    ),
}


def points(n: int) -> str:
    return f"{n} point{'s' if abs(n) != 1 else ''}"


def differences(name: str, base: str = "bga") -> list[str]:
    """How ruleset ``name`` differs from ``base``, a sentence per differing field."""
    if name == base:
        return []
    rules, reference = RULESETS[name], RULESETS[base]
    seen: list[str] = []
    for field_name, sentence in _SENTENCES.items():
        if getattr(rules, field_name) == getattr(reference, field_name):
            continue
        text = sentence(rules)
        if text and text not in seen:
            seen.append(text)
    return seen
