"""Card ids (``w7M``, ``pQH``, ``x*``) shown as their faces in templates, from the engine's
``face_data`` (the one place a card's look is decided; views carry the same as ``faces``)."""

from __future__ import annotations

from django import template

from games.engine import face_data

register = template.Library()


@register.filter
def face(card_id: str) -> str:
    """The card's label: ``7M``, ``Q♥``, ``Rook``."""
    return str(face_data(card_id)["label"]) if card_id else ""


@register.filter
def suit_class(card_id: str) -> str:
    """The CSS class of the card's suit (``suit-m``...), or ``wild``."""
    if not card_id:
        return ""
    data = face_data(card_id)
    return "wild" if data["wild"] else f"suit-{str(data['suit']).lower()}"
