"""Pages: a player's statistics, the leaderboard, the privacy switch, a finished game's replay.

Thin: each asks a selector (stats/selectors.py, stats/replay.py) and draws its answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.models import Profile
from accounts.requests import SignedInRequest
from games.engine import get_ruleset
from social.selectors import relation

from . import aggregates, charts, selectors
from .replay import ReplayRefused, replay_for

RULESET_NAMES = ("bga", "petras", "classic", "rook")
RATING_TABLE_ROWS = selectors.RATING_TABLE_ROWS
# A line 480 units wide shows no more than this many points; more are thinned out.
CHART_POINTS = 240


def _refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "games/error.html", {"message": message}, status=status)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def player_page(request: HttpRequest, username: str) -> HttpResponse:
    scope = request.GET.get("ruleset", selectors.ALL)
    games = request.GET.get("games", "1")
    try:
        page = selectors.player_stats(
            username=username,
            viewer=request.user,
            ruleset=scope,
            history_page=int(games) if games.isdigit() and len(games) < 7 else 1,
        )
    except selectors.PlayerNotFound as exc:
        return _refusal(request, str(exc), 404)
    except selectors.PlayerHidden as exc:
        return _refusal(request, str(exc), 403)
    figures = page["figures"]
    rounds = figures["per_round"]
    labels = [str(r["round"]) for r in rounds]
    made = [None if r["made_rate"] is None else round(100 * r["made_rate"]) for r in rounds]
    places_rows = []
    # One column per place up to the largest table played: a smaller table's row leaves the
    # places it does not have blank ("–"), so every number stays under its own heading.
    place_columns = max((int(size) for size in figures["places"]), default=0)
    for size, counts in figures["places"].items():
        total = sum(counts) or 1
        places_rows.append(
            {
                "size": size,
                "counts": counts,
                "cells": [*counts, *["–"] * (place_columns - len(counts))],
                "shares": [c / total for c in counts],
            }
        )
    history = page["rating_history"]
    # The chart's numbers as text: the most recent games (a thousand rows would bury them).
    rating_table = sorted(
        ((p["game"], p["table"], name, p["rating"]) for name, pts in history.items() for p in pts),
        reverse=True,
    )
    rated_games = len(rating_table)
    rating_series: dict[str, Sequence[tuple[int, float]]] = {
        name: charts.thin([(p["game"], p["rating"]) for p in points], CHART_POINTS)
        for name, points in history.items()
    }
    # The player shown is "player": "user" stays the signed-in user (the header's "My stats"
    # and profile links read it from the auth context processor).
    player = page.pop("user")
    context: dict[str, Any] = {
        **page,
        "player": player,
        "is_me": request.user.is_authenticated and request.user.pk == player.pk,
        # Follow or block them (issue 29): for a signed-in visitor on another's page.
        "relation": (
            relation(request.user, player)
            if request.user.is_authenticated and request.user.pk != player.pk
            else None
        ),
        "f": figures,
        "places_rows": places_rows,
        "place_columns": [_ordinal(i + 1) for i in range(place_columns)],
        "rating_table": [
            {"table": t, "ruleset": n, "rating": r}
            for _, t, n, r in rating_table[:RATING_TABLE_ROWS]
        ],
        "rated_games": rated_games,
        "penalty_labels": aggregates.PENALTY_LABELS,
        "made_labels": [_pct(r["made_rate"]) for r in rounds],
        "charts": {
            "rating": charts.line_chart("chart-rating", "Rating over time", rating_series),
            "made": charts.bar_chart(
                "chart-made",
                "Contract made per round, percent of rounds played",
                labels,
                made,
                fmt="{:g}%",
                top=100,
            ),
            "penalty": charts.stacked_bars(
                "chart-penalty",
                "Penalty per round: share of rounds in each band",
                labels,
                [r["hist"] for r in rounds],
                aggregates.PENALTY_LABELS,
            ),
            "places": charts.stacked_bars(
                "chart-places",
                "Places by table size: share of games in each place",
                [f"{row['size']} seats" for row in places_rows],
                [row["counts"] for row in places_rows],
                [_ordinal(i + 1) for i in range(place_columns)],
            ),
        },
    }
    return render(request, "stats/player.html", context)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    known = selectors.leaderboard_rulesets()
    ruleset = request.GET.get("ruleset") or (known[0] if known else "bga")
    if ruleset not in RULESET_NAMES:
        return _refusal(request, f"there is no ruleset {ruleset}", 404)
    return render(
        request,
        "stats/leaderboard.html",
        {
            "ruleset": ruleset,
            "rulesets": sorted(set(known) | {ruleset}),
            "board": selectors.leaderboard(ruleset=ruleset),
            "min_games": selectors.leaderboard_min_games(),
            "ruleset_label": get_ruleset(ruleset).name,
        },
    )


@login_required
@require_POST
def privacy_save(request: SignedInRequest) -> HttpResponse:
    profile = Profile.objects.for_user(request.user)
    profile.stats_hidden = request.POST.get("stats_hidden") == "on"
    profile.save(update_fields=["stats_hidden"])
    messages.success(
        request,
        "Your statistics are now private."
        if profile.stats_hidden
        else "Your statistics are visible to everyone.",
    )
    return redirect("profile")


def replay_page(request: HttpRequest, table_id: int) -> HttpResponse:
    # The move shown (?move=N, #N) is the page's own: static/js/replay.js reads it.
    try:
        replay = replay_for(table_id=table_id, viewer=request.user)
    except ReplayRefused as exc:
        return _refusal(request, exc.message, exc.status)
    return render(request, "stats/replay.html", {"replay": replay, "table_id": table_id})
