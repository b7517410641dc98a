"""The one exception the engine raises for a refused action."""

from __future__ import annotations


class IllegalMove(ValueError):
    """An action the rules refuse. ``code`` is stable for clients; ``message`` is for people.

    >>> e = IllegalMove("not_your_turn", "seat 2 acted, but it is seat 0's turn")
    >>> e.code, str(e)
    ('not_your_turn', "not_your_turn: seat 2 acted, but it is seat 0's turn")
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# Every code the engine refuses an action with, and what it means (docs/RULES.md says why).
# A closed list, as boardgame.io's ActionErrorType: clients may switch on these. Add a code
# here when the engine gets a new refusal (tests/site/test_error_codes.py checks every raise).
CODES: dict[str, str] = {
    "already_answered": 'the seat already answered "May I?" or "no thanks" for this card',
    "already_down": "the seat's contract is already down this round",
    "bad_action": "the action is not an object of the expected shape, or a field has a wrong type",
    "bad_card": "a card id is not a card of this game",
    "bad_options": "the players, seed, ruleset or options of a new game are not allowed",
    "bad_seat": "there is no such seat at this table",
    "bad_state": "the state given is not a game state",
    "cannot_go_down": "rook: a wild is swapped only by a player who is down or goes down with it",
    "cannot_pass": "a pass needs the contract down and exactly one card left",
    "card_not_in_hand": "a card named is not in the seat's hand",
    "contract_not_down": "laying off needs the seat's contract down",
    "does_not_fit": "the card does not fit that meld (or that end of the run)",
    "duplicate_card": "the same card is named twice",
    "empty_discard": "the discard pile is empty",
    "game_over": "the game is over",
    "invalid_meld": "a group of cards is not a valid book, run or MAYI meld",
    "keep_a_discard": "petras: a player goes out with the final discard, so keeps a card for it",
    "mayi_meld_closed": "nothing may be added to a MAYI meld",
    "must_draw": "draw first: before the draw only a MAYI meld may be laid",
    "must_play": "round 7: the last card can be laid off, so it must be played, not passed",
    "no_contract": "the cards cannot be split into exactly the contract's melds using every card",
    "no_final_discard": "round 7: the last card may not be discarded; meld it, lay it off or pass",
    "no_mayi_melds": "this ruleset has no MAYI melds",
    "no_pass": "a pass is only for a last card in round 7",
    "no_turn_pending": "the turn clock ran out after the turn had ended: nothing to play",
    "no_wild_swaps": "this ruleset does not swap tabled wilds",
    "no_wild_there": "no wild on that meld stands for that card",
    "no_window": 'no card is open to a "May I?" now',
    "not_eligible": "the seat may not buy this card (the player to move, the discarder, "
    "out of buys, or the buyer of the card it uncovered)",
    "not_this_turn": "not on the turn the contract goes down (this ruleset's lay-off rule)",
    "not_your_turn": "another seat is to play",
    "platform_only": "close_window and timeout are sent by the platform only",
    "sale_pending": "the discard is on sale first; the stock draw completes after the sale",
    "timeout_plays": "a timeout's recorded plays go on after the turn ended, or leave it unfinished",
    "turn_over": "the turn is over: it ends when the open window closes",
    "unknown_action": "no action has this type",
    "unknown_meld": "no meld on the table has this id",
    "use_swapped_wild": "a wild taken off the table is played in the same turn",
    "wild_has_no_place": "the wild would have nowhere to go this turn",
    "wrong_contract": "the contract named is not one this round allows",
    "wrong_phase": "the action does not fit this moment of the turn",
}
