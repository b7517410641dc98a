"""The rules pages, for players: one per ruleset, every number read from the engine's data."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.rulesets import RULESETS

from . import content


def rules_index(request: HttpRequest) -> HttpResponse:
    rulesets = [
        {"name": n, "title": content.TITLES.get(n, n), "description": RULESETS[n].description}
        for n in content.ruleset_names()
    ]
    return render(request, "rules/index.html", {"rulesets": rulesets})


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
