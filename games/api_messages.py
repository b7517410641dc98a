"""The API's request-validation errors in players' words.

django-ninja hands pydantic's errors over as ``{"type", "loc", "msg", "ctx"}``; their ``msg``
("List should have at least 4 items after validation") is a validator's text. The page shows
an API refusal's message as it is, so this turns each error into a sentence about the move
("A MAYI meld needs exactly 4 cards"); the code stays ``bad_request``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# The moves, as a sentence names them (ActionIn's tags).
MOVES = {
    "draw": "a draw",
    "lay_down": "a lay-down",
    "lay_off": "a lay-off",
    "mayi_meld": "a MAYI meld",
    "discard": "a discard",
    "pass": "a pass",
    "may_i": "“May I?”",
    "no_thanks": "“no thanks”",
    "swap_wild": "a wild swap",
}
# Fields, as a sentence names them (the request bodies of games/api_schemas.py).
FIELDS = {
    "source": "where to draw from (the stock or the discard pile)",
    "card": "a card",
    "cards": "the cards",
    "melds": "the melds",
    "meld": "the meld",
    "end": "the end of the run",
    "contract": "the contract",
    "wilds": "the numbers the wilds stand for",
    "books": "the number of books",
    "runs": "the number of runs",
    "expect_version": "the table version you saw",
    "type": "the kind of move",
    "seats": "the number of seats",
    "ruleset": "the ruleset",
    "turn_seconds": "the turn clock",
    "bank_seconds": "the time bank",
    "bank_max_seconds": "the most a time bank holds",
    "window_seconds": "the “May I?” window",
    "strikes": "the missed turns before expulsion",
    "public": "whether the table is listed",
    "engine_options": "the ruleset's options",
    "invite_code": "the invite code",
    "order": "the standing order",
    "limit": "the number of buys",
    "days": "the number of days",
}
KINDS = {
    "string_type": "words",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def _cap(words: str) -> str:
    # str.capitalize() lowers the rest: "the “May I?” window" read "The “may i?” window".
    return words[:1].upper() + words[1:]


def _field_words(name: str) -> str:
    return FIELDS.get(name, "a field")


def _sentence(error: Mapping[str, Any]) -> str:
    loc = [str(p) for p in error.get("loc", ()) if p not in ("body", "payload")]
    move = MOVES.get(loc[0]) if loc else None
    fields = [p for p in (loc[1:] if move else loc) if not p.isdigit()]
    field = fields[-1] if fields else ""
    what = _cap(move or "the request")
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "union_tag_invalid":
        return "There is no such move: " + ", ".join(MOVES.values())
    if kind == "union_tag_not_found":
        return "Say which move: " + ", ".join(MOVES.values())
    if kind == "missing":
        return f"{what} needs {_field_words(field)}"
    if kind == "extra_forbidden":
        return (
            f"{what} has no {_field_words(field)}"
            if field in FIELDS
            else f"{what} has no such field"
        )
    if kind in ("too_short", "too_long") and loc[:2] == ["mayi_meld", "cards"]:
        return "A MAYI meld needs exactly 4 cards"
    if kind == "too_short":
        return f"{what} needs at least {ctx.get('min_length')} of {_field_words(field)}"
    if kind == "too_long":
        return f"{what} takes at most {ctx.get('max_length')} of {_field_words(field)}"
    if kind in ("string_too_short", "string_too_long", "string_type") and field in (
        "card",
        "cards",
    ):
        return "That is not a card of this game"
    if kind in ("string_too_short", "string_too_long"):
        return f"{_cap(_field_words(field))} is too {kind.split('_')[-1]}"
    if kind == "literal_error":
        return f"{_cap(_field_words(field))} must be {ctx.get('expected', 'one of the choices')}"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        return f"{_cap(_field_words(field))} is out of range"
    if kind == "value_error" and loc[:1] == ["lay_down"]:
        return "A lay-down gives either the cards (the game finds the melds) or the melds"
    if kind in KINDS:
        subject = _cap(_field_words(field)) if field else "The request"
        return f"{subject} must be {KINDS[kind]}"
    return f"{what}: {_field_words(field)} is not valid" if field else f"{what} is not valid"


def validation_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """One sentence per error (the first few), in words; never a validator's text."""
    sentences: list[str] = []
    for error in errors[:5]:
        sentence = _sentence(error)
        if sentence not in sentences:
            sentences.append(sentence)
    return "; ".join(sentences) or "The request is not valid"
