"""Melding: laying down the contract, laying off, MAYI melds and (rook) swapping wilds.

A lay-down gives ``cards`` (the engine splits them into the contract) or ``melds`` (checked as
grouped); it may add ``contract`` (``{"books": b, "runs": r}``, one the round allows: rook's
round-7 choice) and ``wilds`` (``{wild_id: number}``, where a wild stands in a run).

Ruleset policies read here: ``contract_choices`` (rook's round 7: three runs or four books),
``lay_off_on_lay_down_turn``, ``out_by_discard_only`` (petras: the hand is emptied by the
final discard, so a lay-down or lay-off keeps a card), ``mayi_melds`` and ``wild_swaps``.

A wild swap (``{"type": "swap_wild", "meld": id, "card": natural_id}``) puts the natural card
the wild stands for in its place and the wild in the hand. The wild must be played that same
turn (it "never goes into your hand for later"): a seat that is down lays it off (so the swap
is refused when it could go nowhere, or on the turn the seat laid down, when no lay-off is
allowed), and a seat not yet down must lay down a contract that uses it (so the swap is refused
unless the hand then makes one holding every wild taken off the table this turn; wilds of the
seat's own may stay in hand). Until the wild is played the turn cannot end.
"""

from __future__ import annotations

from typing import Any

from .cards import WILD_RANK, is_wild_card, parse_card
from .contract import assign_ids, plan_wilds, solve_best, solve_exact, solve_most_wilds
from .errors import IllegalMove
from .rulesets import Contract
from .state import State, draw_from_stock, own_hand, own_meld, ruleset_of, with_item
from .table import classify, lay_off_on, layoff_ends, mayi_group
from .turns import (
    card_field,
    card_list,
    in_hand,
    require_turn,
    swapped_in_hand,
    table_meld,
    take_from_hand,
    went_out_check,
)
from .words import faces, meld_words, no_contract, suit_word


def _keep_one(st: State, seat: int, playing: int) -> None:
    rules = ruleset_of(st)
    if rules.out_by_discard_only and len(st["hands"][seat]) <= playing:
        raise IllegalMove(
            "keep_a_discard", "in these rules you go out with your final discard: keep a card"
        )


def _chosen_contract(
    st: State, chosen: Any, choices: tuple[Contract, ...], wanted: str
) -> tuple[Contract, ...]:
    """The one contract a lay-down names with ``"contract": {"books": b, "runs": r}``: where a
    round allows two (rook's round 7), the engine then splits ``cards`` into that one only."""
    if (
        not isinstance(chosen, dict)
        or set(chosen) != {"books", "runs"}
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in chosen.values())
    ):
        raise IllegalMove("bad_action", "choose the contract: a number of books and of runs")
    found = tuple(c for c in choices if (c.books, c.runs) == (chosen["books"], chosen["runs"]))
    if not found:
        raise IllegalMove(
            "wrong_contract",
            f"round {st['round']} needs {wanted}, not "
            f"{Contract(chosen['books'], chosen['runs']).describe() or 'no melds'}",
        )
    return found


def lay_down(st: State, seat: int, action: dict, events: list[dict]) -> None:
    require_turn(st, seat, ("play",))
    if st["down"][seat]:
        raise IllegalMove("already_down", "your contract is already down this round")
    rules = ruleset_of(st)
    choices = rules.contract_choices(st["round"], st["options"])
    wanted = " or ".join(c.describe() for c in choices)
    if "contract" in action:
        choices = _chosen_contract(st, action["contract"], choices, wanted)
        wanted = choices[0].describe()
    has_cards, has_melds = "cards" in action, "melds" in action
    if has_cards == has_melds:
        raise IllegalMove("bad_action", "choose the cards to lay down")
    if has_cards:
        cards = card_list(st, action["cards"], "cards")
        in_hand(st, seat, cards)
        parsed = [parse_card(c) for c in cards]
        plans = None
        for contract in choices:
            plans = solve_exact(parsed, contract.books, contract.runs, rules.cards)
            if plans is not None:
                break
        if plans is None:
            raise IllegalMove(
                "no_contract",
                no_contract(cards, choices, st["round"], rules.cards),
            )
        groups = assign_ids(cards, plans)
    else:
        groups = action["melds"]
        if not isinstance(groups, list) or not groups:
            raise IllegalMove("bad_action", "choose the cards of each meld")
        for g in groups:
            card_list(st, g, "each meld")
        flat = [c for g in groups for c in g]
        if len(set(flat)) != len(flat):
            raise IllegalMove("duplicate_card", "the same card is in two melds")
        in_hand(st, seat, flat)
    wild_numbers = action.get("wilds") or {}
    if not isinstance(wild_numbers, dict) or not all(
        isinstance(k, str)
        and rules.cards.owns(k)
        and _is_wild(k)
        and isinstance(v, int)
        and not isinstance(v, bool)
        for k, v in wild_numbers.items()
    ):
        raise IllegalMove("bad_action", "say which number each wild stands for")
    made = []
    for g in groups:
        found = classify(g, wild_numbers)
        if found is None:
            raise IllegalMove(
                "invalid_meld",
                f"{faces(g)} is neither a book (3 or more of one number) nor a run (4 or more "
                f"in a row in one {suit_word(rules.cards)})",
            )
        made.append(found)
    books = sum(1 for kind, _ in made if kind == "book")
    runs = len(made) - books
    if all((books, runs) != (c.books, c.runs) for c in choices):
        raise IllegalMove(
            "wrong_contract",
            f"round {st['round']} needs {wanted}, not {Contract(books, runs).describe()}",
        )
    used = [c for _, fields in made for c in fields["cards"]]
    left = [w for w in swapped_in_hand(st, seat) if w not in used]
    if left:
        raise IllegalMove("use_swapped_wild", f"your lay-down must use {faces(left)}")
    _keep_one(st, seat, len(used))
    tabled = []
    for kind, fields in made:
        take_from_hand(st, seat, fields["cards"])
        tabled.append(table_meld(st, kind, seat, fields))
    with_item(st, "down", seat, True)
    st["laid_down_this_turn"] = True
    events.append({"type": "laid_down", "seat": seat, "melds": [dict(m) for m in tabled]})
    went_out_check(st, seat, events)


def _is_wild(card: str) -> bool:
    try:
        return is_wild_card(card)
    except ValueError:
        return False


def lay_off(st: State, seat: int, action: dict, events: list[dict]) -> None:
    require_turn(st, seat, ("play",))
    rules = ruleset_of(st)
    if not st["down"][seat]:
        raise IllegalMove("contract_not_down", "lay down your contract before laying off")
    if st["laid_down_this_turn"] and not rules.lay_off_on_lay_down_turn:
        raise IllegalMove("not_this_turn", "you may not lay off on the turn you lay down")
    card = card_field(st, action)
    in_hand(st, seat, [card])
    meld_id = action.get("meld")
    meld = next((m for m in st["melds"] if m["id"] == meld_id), None)
    if meld is None:
        raise IllegalMove("unknown_meld", "that meld is not on the table")
    end = action.get("end")
    if end not in (None, "low", "high"):
        raise IllegalMove("bad_action", "choose an end of the run: low or high")
    if meld["kind"] == "mayi":
        raise IllegalMove("mayi_meld_closed", "nothing may be added to a MAYI meld")
    ends = layoff_ends(meld, card)
    if meld["kind"] == "run" and end is not None:
        ends = [e for e in ends if e == end]
    if not ends:
        raise IllegalMove(
            "does_not_fit",
            f"{faces([card])} does not fit {'that end of ' if end else ''}{meld_words(meld)}",
        )
    _keep_one(st, seat, 1)
    keeps_room_for_swapped(st, seat, card, meld, ends[0])
    own_hand(st, seat).remove(card)
    lay_off_on(own_meld(st, meld), card, ends[0])
    # Owner and kind: a log can say "on bob's run" even after the meld has left the table.
    events.append(
        {
            "type": "laid_off",
            "seat": seat,
            "card": card,
            "meld": meld_id,
            "end": ends[0],
            "owner": meld["owner"],
            "kind": meld["kind"],
        }
    )
    went_out_check(st, seat, events)


def keeps_room_for_swapped(st: State, seat: int, card: str, meld: dict, end: str) -> None:
    """A lay-off while a wild taken off the table waits in hand must leave that wild a place
    (and, where the final discard goes out, a card to discard): else the turn could never end."""
    waiting = [w for w in swapped_in_hand(st, seat) if w != card]
    if not waiting:
        return
    melds = _laid_off(st["melds"], meld, card, end)
    if not _room_for_wilds(st, melds, waiting, len(st["hands"][seat]) - 1):
        raise IllegalMove(
            "wild_has_no_place",
            f"lay off the {faces(waiting)} first: after this it could go nowhere",
        )


def mayi_meld(st: State, seat: int, action: dict, events: list[dict]) -> None:
    rules = ruleset_of(st)
    if not rules.mayi_melds:
        raise IllegalMove("no_mayi_melds", f"{rules.name} has no MAYI melds")
    require_turn(st, seat, ("draw", "play"))
    cards = card_list(st, action.get("cards"), "cards")
    in_hand(st, seat, cards)
    fields = mayi_group(cards)
    if fields is None:
        raise IllegalMove(
            "invalid_meld",
            f"{faces(cards)} is no MAYI meld: it takes one each of M A Y I, all of one number "
            "or four numbers in a row, no wilds",
        )
    take_from_hand(st, seat, cards)
    meld = table_meld(st, "mayi", seat, fields)
    with_item(st, "mayi_count", seat, st["mayi_count"][seat] + 1)
    events.append(
        {"type": "mayi_meld", "seat": seat, "meld": dict(meld), "score": rules.mayi_meld_score}
    )
    if st["down"][seat]:
        went_out_check(st, seat, events)
        return
    hand = own_hand(st, seat)
    drawn = []
    for _ in range(rules.mayi_meld_replacements):
        drawn.append(draw_from_stock(st, events))
        hand.append(drawn[-1])
    # The cards are the seat's secret: games.engine.public keeps only the count for others.
    events.append({"type": "replacements", "seat": seat, "count": len(drawn), "cards": drawn})


# -- rook: swapping a tabled wild ----------------------------------------------------------
def _wild_slot(meld: dict, natural: str) -> int | None:
    """The index of a wild in ``meld`` that ``natural`` stands for, or ``None``."""
    rank, suit = parse_card(natural)
    cards = meld["cards"]
    if meld["kind"] == "book":
        if rank != meld["rank"]:
            return None
        return next((i for i, c in enumerate(cards) if is_wild_card(c)), None)
    if meld["kind"] != "run" or suit != meld["suit"]:
        return None
    i = rank - meld["start"]
    if 0 <= i < len(cards) and is_wild_card(cards[i]):
        return i
    return None


def swap_check(st: State, seat: int, meld_id: object, natural: str) -> tuple[dict, int]:
    """The meld and slot of a legal swap, or :class:`IllegalMove` saying why not."""
    rules = ruleset_of(st)
    if not rules.wild_swaps:
        raise IllegalMove("no_wild_swaps", f"{rules.name}: a tabled wild never moves")
    require_turn(st, seat, ("play",))
    in_hand(st, seat, [natural])
    if parse_card(natural)[0] == WILD_RANK:
        raise IllegalMove("bad_action", "swap a wild for a natural card, not for a wild")
    meld = next((m for m in st["melds"] if m["id"] == meld_id), None)
    if meld is None:
        raise IllegalMove("unknown_meld", "that meld is not on the table")
    slot = _wild_slot(meld, natural)
    if slot is None:
        raise IllegalMove(
            "no_wild_there", f"no wild in {meld_words(meld)} stands for {faces([natural])}"
        )
    wild = meld["cards"][slot]
    hand = [c for c in st["hands"][seat] if c != natural] + [wild]
    if st["down"][seat]:
        if st["laid_down_this_turn"] and not rules.lay_off_on_lay_down_turn:
            raise IllegalMove("not_this_turn", "a wild taken now could not be laid off this turn")
        after = dict(meld, cards=meld["cards"][:])
        after["cards"][slot] = natural
        melds = [after if m is meld else m for m in st["melds"]]
        # Every wild taken off the table this turn must still find a place of its own (two
        # may compete for one run end).
        if not _room_for_wilds(st, melds, [*swapped_in_hand(st, seat), wild], len(hand)):
            raise IllegalMove(
                "wild_has_no_place",
                f"the {faces([wild])} you would take could go nowhere this turn",
            )
        return meld, slot
    # The lay-down must hold this wild and any taken off the table before it this turn; the
    # seat's own wilds may stay in hand. Wilds are alike to the solver, so it is enough that
    # some lay-down uses that many wilds.
    needed = len(swapped_in_hand(st, seat)) + 1
    parsed = [parse_card(c) for c in hand]
    for contract in rules.contract_choices(st["round"], st["options"]):
        plans = solve_most_wilds(parsed, contract.books, contract.runs, rules.cards)
        if plans is not None and plan_wilds(plans) >= needed:
            return meld, slot
    raise IllegalMove(
        "cannot_go_down", "swap a wild only if you are down or go down with it this turn"
    )


def _room_for_wilds(st: State, melds: list[dict], wilds: list[str], in_hand: int) -> bool:
    """Whether a seat holding ``in_hand`` cards can still lay off every one of ``wilds`` (taken
    off the table this turn) on ``melds``, and, where the final discard goes out, keep a card
    for it."""
    if ruleset_of(st).out_by_discard_only and in_hand <= len(wilds):
        return False
    return _all_placeable(melds, wilds)


def _laid_off(melds: list[dict], meld: dict, card: str, end: str) -> list[dict]:
    """``melds`` with ``card`` laid off on ``meld`` at ``end``, the others untouched (copied)."""
    grown = dict(meld, cards=meld["cards"][:])
    lay_off_on(grown, card, end)
    return [grown if m is meld else m for m in melds]


def _all_placeable(melds: list[dict], wilds: list[str]) -> bool:
    """Whether ``wilds`` can all be laid off on ``melds``, one after another (each lay-off
    changes where the next may go: a run grows, a book's wild limit fills)."""
    if not wilds:
        return True
    first, rest = wilds[0], wilds[1:]
    return any(
        _all_placeable(_laid_off(melds, meld, first, end), rest)
        for meld in melds
        for end in layoff_ends(meld, first)
    )


def swap_wild(st: State, seat: int, action: dict, events: list[dict]) -> None:
    natural = card_field(st, action)
    meld, slot = swap_check(st, seat, action.get("meld"), natural)
    wild = meld["cards"][slot]
    own_meld(st, meld)["cards"][slot] = natural
    hand = own_hand(st, seat)
    hand.remove(natural)
    hand.append(wild)
    st["swapped"] = [*(st.get("swapped") or []), wild]
    events.append(
        {"type": "wild_swapped", "seat": seat, "meld": meld["id"], "card": natural, "wild": wild}
    )


def contract_plan(st: State, seat: int, hand: list[str]) -> list[list[str]] | None:
    """Groups of card ids for the best lay-down from ``hand`` (used by bots and hints), under
    every contract the round allows (a plan using more wilds first, then more cards).

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc", "rook"); st["round"] = 7
    >>> melds = contract_plan(st, 0, "x5R y5G x5Y x9K y9K x9G x14R x14G x14Y x2R x2G x*".split())
    >>> melds[0], len(melds)  # round 7's other contract: four books
    (['x2R', 'x2G', 'x*'], 4)
    """
    rules = ruleset_of(st)
    parsed = [parse_card(c) for c in hand]
    # With a wild taken off the table in hand, the plan must hold it: the most wilds first.
    solve = solve_most_wilds if swapped_in_hand(st, seat) else solve_best
    best = None
    for contract in rules.contract_choices(st["round"], st["options"]):
        plans = solve(parsed, contract.books, contract.runs, rules.cards)
        if plans is not None and (best is None or _size(plans) > _size(best)):
            best = plans
    if best is None:
        return None
    groups = assign_ids(hand, best)
    # Any wild stands in any wild's place: put those taken off the table in the lay-down.
    pending = [w for w in swapped_in_hand(st, seat) if w in hand]
    used = {c for g in groups for c in g}
    for w in pending:
        if w in used:
            continue
        for g in groups:
            own = next((c for c in g if is_wild_card(c) and c not in pending), None)
            if own is not None:
                g[g.index(own)] = w
                used.add(w)
                break
    return groups


def _size(plans: list) -> tuple[int, int]:
    # Wilds first: a wild swapped off the table must go down with the contract.
    wilds = sum(w for _, _, w in plans)
    return wilds, wilds + sum(len(cells) for _, cells, _ in plans)
