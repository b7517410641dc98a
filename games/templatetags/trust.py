"""Trust at the table in templates (issue 29): a player's reliability next to their name, with
the counts behind it on hover, focus and tap; a table's pace in words.

``{% reliability figure part part... %}``: the parts make the tip's id, unique on the page.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.reliability import NONE, Figure, move_time
from games.services.pace import pace_words, window_words

register = template.Library()


@register.inclusion_tag("games/_reliability.html")
def reliability(figure: Figure | None, *uid: Any) -> dict[str, Any]:
    """``93%`` (or ``new``) as a button whose description is the counts: a screen reader reads
    them with it, a pointer's hover or a tap (its focus) shows them (static/js/trust.js keeps a
    tap's open until the next tap elsewhere)."""
    figure = figure or NONE
    return {"figure": figure, "uid": "rel-" + "-".join(str(part) for part in uid)}


@register.filter
def pace(turn_seconds: Any) -> str:
    """ "1 day a turn", "fast: 2 min a turn"."""
    return pace_words(turn_seconds)


@register.filter
def window(window_seconds: Any) -> str:
    """ "“May I?” 1 h"."""
    return window_words(window_seconds)


@register.filter
def figure_at(figures: dict[int, Figure] | None, position: int) -> Figure | None:
    """The reliability of the person in seat ``position`` (``LobbyEntry.reliability``)."""
    return (figures or {}).get(position)


@register.filter(name="move_time")
def move_time_filter(seconds: float | None) -> str:
    """A median time to move in words ("4 s", "2 min")."""
    return "" if seconds is None else move_time(seconds)


@register.filter
def get_item(mapping: dict[str, Any] | None, key: Any) -> Any:
    """``mapping[key]``, or None (``TableTrust.relations`` by username)."""
    return (mapping or {}).get(key)
