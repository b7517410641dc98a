"""Formatting the statistics' numbers for people (None shows as a dash)."""

from __future__ import annotations

from django import template

register = template.Library()

DASH = "–"


@register.filter
def num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return DASH
    return f"{value:.{int(digits)}f}"


@register.filter
def pct(value: float | None) -> str:
    return DASH if value is None else f"{100 * value:.0f}%"


@register.filter
def ordinal(n: int | None) -> str:
    if n is None:
        return DASH
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.filter
def signed(n: int | None) -> str:
    if n is None:
        return ""
    return f"+{n}" if n > 0 else ("±0" if n == 0 else f"−{-n}")


@register.filter
def duration(seconds: float | None) -> str:
    """``42 s``, ``3 min``, ``2.5 h``, ``1.2 days``."""
    if seconds is None:
        return DASH
    s = float(seconds)
    if s < 90:
        return f"{s:.0f} s"
    if s < 90 * 60:
        return f"{s / 60:.0f} min"
    if s < 36 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"
