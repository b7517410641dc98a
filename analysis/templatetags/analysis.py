"""The analysis drawn into the statistics page (stats/player.html) without stats importing the
analysis app: the section of a player's analysed decisions, and each finished game's mark (or
its "Analyse" button) in the list of games."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User

from stats import charts

from .. import selectors

register = template.Library()


@register.inclusion_tag("analysis/_section.html")
def analysis_section(player: User, scope: str, is_me: bool) -> dict[str, Any]:
    figures = selectors.player_decisions(user=player, scope=scope)
    games = figures["games"]
    series: dict[str, list[tuple[int, float]]] = {}
    for n, game in enumerate(games):
        series.setdefault(game["ruleset"], []).append((n, round(game["cost"], 2)))
    chart = (
        charts.line_chart(
            "chart-decision-cost",
            "Average cost per decision, game by game (expected penalty points; lower is better)",
            series,
            fmt="{:.1f}",
            x_label="analysed game",
            pad_least=0.5,
        )
        if games
        else None
    )
    return {
        **figures,
        "chart": chart,
        "is_me": is_me,
        "scope": scope,
        "username": player.get_username(),
        "newest_first": list(reversed(games)),
    }


@register.simple_tag
def analysis_marks(player: User, history: list[Any]) -> dict[int, selectors.GameMark]:
    """``{% analysis_marks player history as marks %}``: each listed game's analysis."""
    return selectors.game_marks(user=player, table_ids=[g.table_id for g in history])


@register.inclusion_tag("analysis/_mark.html", takes_context=True)
def analysis_mark(
    context: dict[str, Any], marks: dict[int, selectors.GameMark], table_id: int, linked: bool
) -> dict[str, Any]:
    """One game's cell: its figures (a link to its replay when ``linked``), pending, or for the
    player themself a button asking for it."""
    request = context.get("request")
    return {
        "mark": marks.get(table_id),
        "table_id": table_id,
        "linked": linked,
        "is_me": context.get("is_me", False),
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }
