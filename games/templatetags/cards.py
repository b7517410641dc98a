"""Showing card ids (``w7M``, ``b?``) as faces in templates."""

from __future__ import annotations

from django import template

register = template.Library()

SUIT_NAMES = {"M": "m", "A": "a", "Y": "y", "I": "i"}


@register.filter
def face(card_id: str) -> str:
    return card_id[1:] if card_id else ""


@register.filter
def suit_class(card_id: str) -> str:
    if not card_id:
        return ""
    letter = card_id[-1]
    return f"suit-{SUIT_NAMES[letter]}" if letter in SUIT_NAMES else "wild"


@register.filter
def index(sequence: list, position: int) -> object:
    try:
        return sequence[position]
    except (IndexError, TypeError, KeyError):
        return ""
