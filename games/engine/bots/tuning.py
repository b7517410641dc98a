"""The strong bot's weights, one set per kind of ruleset.

A weight that wins in one ruleset can lose in another (rook counts a card as one point, petras
and classic forbid laying off on the lay-down turn and have no cap on buys), so
``tuning_for`` picks the set from the ruleset's data, never from its name, like the rest of
the engine. Each value was tuned with ``bench/bots.py`` against three baseline bots.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rulesets import RuleSet


@dataclass(frozen=True)
class Tuning:
    w_pen: float = 0.15  # a penalty point's worth, before the round's end is near
    feed_w: float = 0.1  # feeding a collector costs, but mostly the hand decides
    take_margin: float = 5.0  # what a known card must add over the stock's unknown one
    buy_margin: float = 6.0  # what a purchase must add, its penalty card counted
    out_w: float = 0.6  # a live out's worth, for the first twenty
    out_w2: float = 0.3  # ... and for the rest
    extra_cap: int = 2  # no cap on buys: the most extra cards a buyer holds
    stock_pace: float = 1.5  # cards drawn from the stock per turn (buys and MAYI melds too)
    # How near the round's end is (0..1, see strong.urgency) when another seat is down
    # with 1, 2 or 3 cards (more: 0).
    urgency_left: tuple[float, ...] = (1.0, 0.8, 0.5)
    # With the round's end near (urgency 0.3 or more), still buy a card that completes the
    # contract when the seat has a turn to come.
    late_buys: bool = False
    # A taken discard must also add more than the stock's card may (the chance that it is an
    # out, times an out's worth), not only take_margin.
    take_ev: bool = False
    # MAYI melds before the seat's contract (each draws four replacements from the stock,
    # strong.makes_mayi_meld): only once another seat drew replacements this round (False:
    # strong, easy, normal), or also first while at least mayi_stock cards are left to draw
    # (True: the expert, with no limit; docs/ANALYSIS.md, "MAYI melds first").
    mayi_first: bool = False
    mayi_stock: int = 60
    # A hand one natural short of a MAYI meld: worth mayi_near, plus mayi_near_out for each
    # live card that completes it (up to ten).
    mayi_near: float = 12.0
    mayi_near_out: float = 1.0
    # A penalty point's worth in the game's last round, before its end is near (None: w_pen).
    # bga's last round (three runs, no final discard) ends with nobody out in 59 of 60
    # rounds of the expert's tables: its hand is what it scores (the expert in bga: 1.2).
    w_pen_last: float | None = None


DEFAULT = Tuning()

# One point a card (rook): a discard that only adds outs (a second way to a run, more numbers
# for a book) is worth taking over the stock's unknown card, and a bigger hand costs a point a
# card, not its face: a third purchase pays. Against three baselines (docs/PERFORMANCE.md):
# 400 games at the bench's seed 37.0% -> 40.5%, 200 games at seed x1 38.5% -> 49.0%.
# A seat down with two or three cards is common there (no lay-off on the lay-down turn), and
# buying nothing then left the bot not down at the round's end more often than the baselines:
# late buys, 400 games, bench seed 40.5% -> 46.0%, seed x2 39.5% -> 45.5%. No lay-off on the
# lay-down turn there either (as STANDARD, below), and a seat that goes out leaves everyone a
# last turn: a seat down with two or three cards is far from the round's end (urgency_left).
# A discard is taken when it beats the stock's card, which is an out as often as the hand's
# live outs say (take_ev). Both: bench seed 46.0% -> 52.2% (take_ev alone 47.2%).
FLAT_PENALTIES = replace(
    DEFAULT,
    take_margin=2.0,
    extra_cap=4,
    late_buys=True,
    take_ev=True,
    urgency_left=(0.8, 0.1, 0.0),
)

# The standard pack's rulesets (petras, classic): 10 and 12 cards dealt, no lay-off on the
# lay-down turn. A seat that is down has laid off what it could, so with two or three cards
# left it needs at least one or two more turns, each drawing a card that fits, before its last
# card can go: until one card is left the bot keeps building (sheds no pair of aces, breaks
# no book for its penalty). Against three baselines (docs/PERFORMANCE.md): 400 games at the
# bench's seed, petras 42.5% -> 51.5%, classic 40.5% -> 54.0% (0.8 / 0.3 / 0: 47.5%, 51.2%).
STANDARD = replace(DEFAULT, urgency_left=(0.8, 0.1, 0.0))


def expert_tuning(rules: RuleSet) -> Tuning:
    """The weights of the expert's own play (``expert.expert_action``): the strong bot's,
    with every MAYI meld made at once, before the contract too, whatever is left to draw,
    and (bga) a penalty point counted for more in the game's last round.

    >>> from games.engine.rulesets import get_ruleset
    >>> t = expert_tuning(get_ruleset("bga"))
    >>> (t.mayi_first, t.mayi_stock, t.w_pen, t.w_pen_last)
    (True, 0, 0.15, 1.2)
    >>> expert_tuning(get_ruleset("rook")).w_pen_last is None
    True
    """
    found = _EXPERT.get(rules.name)
    if found is None:
        # The last round's weight was measured in bga only, where the MAYI melds' replacements
        # run its last round dry: the variants keep the strong bot's.
        last = 1.2 if rules.mayi_melds else None
        found = _EXPERT[rules.name] = replace(
            tuning_for(rules), mayi_first=True, mayi_stock=0, w_pen_last=last
        )
    return found


_EXPERT: dict[str, Tuning] = {}


def tuning_for(rules: RuleSet) -> Tuning:
    """The weights the strong bot uses under ``rules``.

    >>> from games.engine.rulesets import get_ruleset
    >>> tuning_for(get_ruleset("bga")).w_pen
    0.15
    >>> tuning_for(get_ruleset("rook")).take_margin
    2.0
    >>> tuning_for(get_ruleset("petras")).urgency_left
    (0.8, 0.1, 0.0)
    """
    if rules.penalties == "one_each":
        return FLAT_PENALTIES
    if rules.penalties == "standard":
        return STANDARD
    return DEFAULT
