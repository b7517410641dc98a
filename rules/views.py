"""The rules pages, for players: one per ruleset, every number read from the engine's data."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine import RULESETS

from . import content


def rules_index(request: HttpRequest) -> HttpResponse:
    rulesets = [
        {
            "name": n,
            "title": content.TITLES.get(n, n),
            "description": RULESETS[n].description,
            # Each ruleset's own range, from the engine (bga is for 3 to 8, not the site's 2).
            "players": f"{RULESETS[n].min_players} to {RULESETS[n].max_players} players",
        }
        for n in content.ruleset_names()
    ]
    fewest = min(RULESETS.values(), key=lambda r: r.min_players)
    context = {
        "rulesets": rulesets,
        "fewest": fewest.min_players,
        "fewest_title": content.TITLES.get(fewest.name, fewest.name),
        "most": max(r.max_players for r in RULESETS.values()),
        "usual": min(r.min_players for r in RULESETS.values() if r is not fewest),
    }
    return render(request, "rules/index.html", context)


def rules_page(request: HttpRequest, ruleset: str) -> HttpResponse:
    if ruleset not in RULESETS:
        return render(
            request,
            "games/error.html",
            {"message": f"There is no ruleset called “{ruleset}”."},
            status=404,
        )
    others = [
        {"name": n, "title": content.TITLES.get(n, n)}
        for n in content.ruleset_names()
        if n != ruleset
    ]
    return render(
        request,
        "rules/ruleset.html",
        {"r": content.page(ruleset), "others": others, "differences": content.differences(ruleset)},
    )
