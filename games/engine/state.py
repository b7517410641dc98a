"""The game state: a plain JSON dict, how a game starts, and the moves of cards between places.

Everything here mutates a state the caller already copied (:func:`copy_state`); ``apply`` in
``actions.py`` is the only public way to change a state.

Places a card can be: a hand, the stock (top is the list's end), the discard pile (top is the
end; ``discard_from`` holds who discarded each card, ``None`` for the turned-up card), or a
tabled meld. Every card id is in exactly one of them at every step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

from .errors import IllegalMove
from .rng import SeededStream
from .rulesets import RULESETS, RuleSet, get_ruleset
from .scoring import cards_penalty, places


class Meld(TypedDict, total=False):
    """A meld on the table (engine/table.py makes them)."""

    id: int
    kind: str  # "book", "run" or "mayi"
    owner: int
    cards: list[str]


class State(TypedDict, total=False):
    """A game's state: plain JSON (a stored state is this dict, ``json.loads`` of the column).

    Every key the engine reads or writes is here, so mypy checks each ``st["..."]``; the values
    are typed where the shape is one, ``Any`` where it differs by ruleset or by version (a
    stored game of an older version still loads: ``records.initial_state`` and the golden files,
    tests/engine/test_golden.py, tests/site/test_replay.py). Optional keys (``total=False``):
    ``calls`` for first-caller rulesets, ``finisher`` and ``last_turns`` for last-turns ones,
    ``swapped`` within a turn, ``choice`` for rook's round 7, ``last_round`` once a round ended.
    """

    v: int
    ruleset: str
    options: dict[str, Any]
    seed: str
    rng: int
    players: int
    round: int
    dealer: int
    never_buy: list[bool]
    scores: list[Any]
    totals: list[int]
    rounds_out: list[int]
    game_over: bool
    places: list[int] | None
    moves: int
    hands: list[list[str]]
    discard: list[str]
    discard_from: list[Any]
    stock: list[str]
    melds: list[Any]
    next_meld: int
    down: list[bool]
    laid_down_this_turn: bool
    buys: list[int]
    mayi_count: list[int]
    reshuffles: int
    active: int
    phase: str
    window: Any
    held: Any
    early: list[Any]
    swapped: Any
    taken: list[Any]
    calls: list[int]
    finisher: int | None
    last_turns: list[int]
    last_round: dict[str, Any]
    choice: Any
    mayi_melds: Any
    made: Any
    leftover: Any
    complete: Any
    went_out: Any
    reason: Any
    progress: Any
    penalties: Any
    last_cards: Any


STATE_VERSION = 1


class RoundOver(Exception):
    """Raised inside an action when the round ends mid-way (someone out, or no stock left),
    or when the turn ends mid-way and the handler has nothing more to do."""


def ruleset_of(st: State) -> RuleSet:
    # Asked a hundred times a turn: the dict first, get_ruleset's message for a bad name.
    try:
        return RULESETS[st["ruleset"]]
    except KeyError:
        return get_ruleset(st["ruleset"])


def new_game(players: int, seed: str, ruleset: str = "bga", options: dict | None = None) -> State:
    """A new game with round 1 dealt. The dealer is drawn from the seeded stream.

    >>> st = new_game(4, "doc")
    >>> st["round"], len(st["hands"][0]), len(st["discard"]), st["phase"]
    (1, 6, 1, 'draw')
    """
    if not isinstance(players, int) or isinstance(players, bool):
        raise IllegalMove("bad_options", "players must be an integer")
    if not isinstance(seed, str) or not seed:
        raise IllegalMove("bad_options", "seed must be a non-empty string")
    if not isinstance(ruleset, str):
        raise IllegalMove("bad_options", f"a ruleset is a name, not {ruleset!r}")
    try:
        rules = get_ruleset(ruleset)
    except ValueError as exc:
        raise IllegalMove("bad_options", str(exc)) from None
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalMove(
            "bad_options",
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}",
        )
    if options is not None and not isinstance(options, dict):
        raise IllegalMove("bad_options", "options must be a JSON object")
    opts = dict(options or {})
    unknown = sorted(set(opts) - {"never_buy"} - set(rules.option_names))
    if unknown:
        raise IllegalMove("bad_options", f"{rules.name} has no option {', '.join(unknown)}")
    why = rules.vet_options({k: v for k, v in opts.items() if k != "never_buy"})
    if why:
        raise IllegalMove("bad_options", why)
    never_buy = opts.pop("never_buy", None) or [False] * players
    # The platform passes users' table options through here to vet them: refuse, never crash.
    if (
        not isinstance(never_buy, list)
        or len(never_buy) != players
        or not all(isinstance(x, bool) for x in never_buy)
    ):
        raise IllegalMove("bad_options", "never_buy needs one true/false flag per seat")
    stream = SeededStream(seed, 0)
    st: State = {
        "v": STATE_VERSION,
        "ruleset": rules.name,
        "options": opts,
        "seed": seed,
        "rng": 0,
        "players": players,
        "round": 0,
        "dealer": stream.below(players),
        "never_buy": [bool(x) for x in never_buy],
        "scores": [],
        "totals": [0] * players,
        "rounds_out": [0] * players,
        "game_over": False,
        "places": None,
        "moves": 0,
    }
    st["rng"] = stream.counter
    # start_round advances the dealer, so step back one seat first.
    st["dealer"] = (st["dealer"] - 1) % players
    start_round(st, [])
    return st


def state_of(stored: Mapping[str, Any] | None) -> State:
    """A stored state (a table's JSON column, ``None`` before the game starts: empty) as the
    engine's ``State``: the one place the platform's untyped JSON becomes typed. Nothing is
    copied or checked: the engine's functions check what they read.

    >>> state_of(None)
    {}
    """
    return cast(State, stored or {})


def copy_state(st: State) -> State:
    """A copy deep enough that changing it never touches ``st`` (faster than deepcopy).

    Every action copies the state once, so this is on the hot path of every bot game. What
    no action changes in place is shared, not copied: the options, the held discard, the
    ``taken`` history and ``scores`` (``note_taken`` and ``end_round`` replace them with a
    longer list), the stock and the discard pile (``draw_from_stock``, :func:`take_discard`
    and ``do_discard`` replace them), the per-seat lists (replaced: :func:`with_item`), the
    hands and the tabled melds (an action that changes one replaces it first:
    :func:`own_hand`, :func:`own_meld`). Only the list of melds and an open window are
    copied."""
    new = st.copy()
    new["melds"] = st.get("melds", [])[:]
    w = st.get("window")
    if w:
        new["window"] = window = dict(w, eligible=w["eligible"][:], answers=w["answers"][:])
        if "calls" in w:
            window["calls"] = w["calls"][:]
    return new


def own_hand(st: State, seat: int) -> list[str]:
    """The seat's hand, copied into a new list of hands, to be changed in place: copy_state
    shares the hands with the state it copied."""
    hands = st["hands"][:]
    hand = hands[seat] = hands[seat][:]
    st["hands"] = hands
    return hand


def take_discard(st: State) -> str:
    """Take the discard pile's top card (new lists: copy_state shares the pile)."""
    st["discard_from"] = st["discard_from"][:-1]
    pile = st["discard"]
    st["discard"] = pile[:-1]
    return pile[-1]


PerSeat = Literal["buys", "down", "early", "mayi_count", "rounds_out"]


def with_item(st: State, key: PerSeat, index: int, value: Any) -> None:
    """``st[key][index] = value`` on a new list: copy_state shares the per-seat lists."""
    row = st[key][:]
    row[index] = value
    st[key] = row


def own_meld(st: State, meld: dict) -> dict:
    """A copy of ``meld`` (of the copied ``st``) that replaces it on the table, to be changed
    in place: copy_state shares the melds with the state it copied."""
    mine = dict(meld, cards=meld["cards"][:])
    melds = st["melds"]
    melds[next(i for i, m in enumerate(melds) if m is meld)] = mine
    return mine


def start_round(st: State, events: list[dict]) -> None:
    """Deal the next round: the deal passes one seat clockwise; the seat after deals first."""
    rules = ruleset_of(st)
    n = st["players"]
    st["round"] += 1
    st["dealer"] = (st["dealer"] + 1) % n
    stream = SeededStream(st["seed"], st["rng"])
    deck = rules.cards.full_deck(rules.decks(n))
    stream.shuffle(deck)
    st["rng"] = stream.counter
    size = rules.deal_size(st["round"])
    order = [(st["dealer"] + 1 + i) % n for i in range(n)]
    hands: list[list[str]] = [[] for _ in range(n)]
    for _ in range(size):
        for seat in order:
            hands[seat].append(deck.pop())
    st["hands"] = hands
    st["discard"] = [deck.pop()]
    st["discard_from"] = [None]
    st["stock"] = deck
    st["melds"] = []
    st["next_meld"] = 1
    st["down"] = [False] * n
    st["laid_down_this_turn"] = False
    st["buys"] = [0] * n
    st["mayi_count"] = [0] * n
    st["reshuffles"] = 0
    st["active"] = order[0]
    st["phase"] = "draw"
    st["window"] = None
    st["held"] = None
    st["early"] = [None] * n
    st.pop("swapped", None)  # a round can end (last turns) before the turn clears it
    # Public history for the bots: [seat, card] for each card a seat took from the discard
    # pile this round (draws and purchases), in order. Everyone at the table saw them taken.
    st["taken"] = []
    if rules.claim == "first_caller":
        st["calls"] = []  # seats that called "May I?" for the discard top, earliest first
    if rules.round_end == "last_turns":
        st["finisher"] = None  # the seat that went out first
        st["last_turns"] = []  # seats still owed their last turn, in order
    events.append(
        {
            "type": "round_started",
            "round": st["round"],
            "dealer": st["dealer"],
            "active": st["active"],
            "discard_top": st["discard"][-1],
        }
    )


def note_taken(st: State, seat: int, card: str) -> None:
    """Record in the public history that ``seat`` took ``card`` from the discard pile (states
    saved before the history existed start it on their first pick-up)."""
    st["taken"] = [*st.get("taken", ()), [seat, card]]  # a new list: copy_state shares it


def draw_from_stock(st: State, events: list[dict]) -> str:
    """Take the stock's top card, rebuilding the stock once from the discard pile if needed.

    Raises :class:`RoundOver` after ending the round when the stock runs out again.
    """
    if not st["stock"]:
        rules = ruleset_of(st)
        cap = rules.reshuffles_per_round
        if (cap is not None and st["reshuffles"] >= cap) or len(st["discard"]) <= 1:
            end_round(st, st.get("finisher"), events, reason="stock_exhausted")
            raise RoundOver
        pile = st["discard"][:-1]
        st["discard"] = st["discard"][-1:]
        st["discard_from"] = st["discard_from"][-1:]
        stream = SeededStream(st["seed"], st["rng"])
        stream.shuffle(pile)
        st["rng"] = stream.counter
        st["stock"] = pile
        if st.get("taken"):
            # Cards shuffled into the stock are no one's any more (and a view never names a
            # stock card).
            gone = set(pile)
            st["taken"] = [t for t in st["taken"] if t[1] not in gone]
        st["reshuffles"] += 1
        events.append({"type": "stock_rebuilt", "stock_size": len(pile)})
    stock = st["stock"]
    st["stock"] = stock[:-1]  # a new list: copy_state shares the stock
    return stock[-1]


def _meld_copy(meld: dict) -> dict:
    return {k: (v[:] if isinstance(v, list) else v) for k, v in meld.items()}


def _played_cards(events: list[dict], seat: int | None) -> list[str]:
    """The cards ``seat`` put on the table or the pile in ``events`` (one action's), in order.

    >>> _played_cards([{"type": "laid_off", "seat": 1, "card": "w7M"},
    ...                {"type": "discarded", "seat": 1, "card": "b3A"}], 1)
    ['w7M', 'b3A']
    """
    out: list[str] = []
    if seat is None:
        return out
    for e in events:
        if e.get("seat") != seat:
            continue
        kind = e.get("type")
        if kind in ("discarded", "laid_off"):
            out.append(e["card"])
        elif kind == "laid_down":
            for m in e.get("melds") or ():
                out.extend(m.get("cards") or ())
        elif kind == "mayi_meld" and isinstance(e.get("meld"), dict):
            out.extend(e["meld"].get("cards") or ())
    return out


def end_round(st: State, went_out: int | None, events: list[dict], reason: str) -> None:
    """Score the round, then deal the next one or finish the game."""
    rules = ruleset_of(st)
    n = st["players"]
    penalties = [
        0 if seat == went_out else cards_penalty(st["hands"][seat], rules.penalties)
        for seat in range(n)
    ]
    scores = [penalties[s] + st["mayi_count"][s] * rules.mayi_meld_score for s in range(n)]
    st["scores"] = [*st["scores"], scores]  # a new list: copy_state shares it
    st["totals"] = [t + s for t, s in zip(st["totals"], scores, strict=True)]
    if went_out is not None:
        with_item(st, "rounds_out", went_out, st["rounds_out"][went_out] + 1)
    st["window"] = None
    st["held"] = None
    # Every hand is shown when a round ends (the players count their cards): the event names
    # them, and the state keeps the summary for the next round's view (games.engine.public).
    hands = [h[:] for h in st["hands"]]
    # The table as the round left it (the next deal clears it): the melds, and the cards the
    # player who went out played last (this action's, the move that emptied the hand).
    melds = [_meld_copy(m) for m in st["melds"]]
    last_cards = _played_cards(events, went_out)
    events.append(
        {
            "type": "round_ended",
            "round": st["round"],
            "reason": reason,
            "went_out": went_out,
            "penalties": penalties,
            "scores": scores,
            "buys": st["buys"][:],
            "mayi_melds": st["mayi_count"][:],
            "totals": st["totals"][:],
            "hands": hands,
            "melds": melds,
            "last_cards": last_cards,
        }
    )
    # A new dict each round, never changed in place: copy_state may share it.
    st["last_round"] = {
        "round": st["round"],
        "reason": reason,
        "went_out": went_out,
        "hands": hands,
        "penalties": penalties,
        "scores": scores,
        "mayi_melds": st["mayi_count"][:],
        "totals": st["totals"][:],
        "melds": melds,
        "last_cards": last_cards,
    }
    if st["round"] >= rules.rounds:
        st["game_over"] = True
        st["phase"] = "game_over"
        final = places(st["totals"], st["rounds_out"], rules.ties_broken_by_rounds_out)
        st["places"] = final
        events.append({"type": "game_over", "totals": st["totals"][:], "places": final[:]})
    else:
        start_round(st, events)
