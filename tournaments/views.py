"""Pages: the tournaments (list and new), one tournament's standings and rounds, the forms
that join, withdraw and start, an invite link, and "the same deal at other tables".

Thin: each asks a selector or calls one service, then draws the answer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST

from accounts.requests import SignedInRequest
from games import services as games
from mayi_site.timezones import DAY_TIME, zoned

from . import scoring, selectors, services
from .deal import deal_pane
from .forms import TournamentForm
from .models import Tournament


def _refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "games/error.html", {"message": message}, status=status)


def tournaments_page(request: HttpRequest, form: TournamentForm | None = None) -> HttpResponse:
    tournaments = selectors.tournament_list(viewer=request.user)
    return render(
        request,
        "tournaments/list.html",
        {
            "registering": [t for t in tournaments if t.status == Tournament.Status.REGISTERING],
            "playing": [t for t in tournaments if t.status == Tournament.Status.PLAYING],
            "finished": [t for t in tournaments if t.status == Tournament.Status.FINISHED],
            "form": form or TournamentForm(),
        },
        status=400 if form is not None else 200,
    )


@login_required
@require_POST
def tournament_create(request: SignedInRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return tournaments_page(request, form)
    data = form.cleaned_data
    try:
        tournament = services.tournament_create(
            creator=request.user,
            name=data["name"],
            ruleset=data["ruleset"],
            table_size=data["table_size"],
            rounds=data["rounds"],
            turn_seconds=data["turn_hours"] * 3600,
            window_seconds=data["window_minutes"] * 60,
            round_seconds=data["round_days"] * 24 * 3600,
            max_players=data["max_players"],
            public=data["public"],
        )
    except games.ServiceError as exc:
        form.add_error(None, exc.message)
        return tournaments_page(request, form)
    return redirect("tournament", tournament_id=tournament.pk)


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = selectors.tournament_for(tournament_id=tournament_id, viewer=request.user)
    except games.ServiceError as exc:
        return _refusal(request, exc.message, exc.status)
    payload = selectors.tournament_payload(tournament, request.user)
    me = request.user.get_username() if request.user.is_authenticated else None
    rounds = payload["rounds"]
    for round_ in rounds:
        deals = sorted({t["seat_count"] for t in round_["tables"]})
        round_["deals"] = deals
        for table in round_["tables"]:
            table["mine"] = me in table["seats"]
    return render(
        request,
        "tournaments/tournament.html",
        {
            "t": payload["tournament"],
            "standings": payload["standings"],
            "rounds": rounds,
            "me": me,
            "no_comparison": scoring.NO_COMPARISON,
            # In the viewer's zone (the middleware's), named.
            "deadline": zoned(
                parse_datetime(payload["tournament"]["round_deadline"] or ""), DAY_TIME
            ),
        },
    )


def _act(request: SignedInRequest, tournament_id: int, action: Any, done: str) -> HttpResponse:
    try:
        action()
    except games.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_join(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    code = request.POST.get("invite_code") or None
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_join(
            user=request.user, tournament_id=tournament_id, invite_code=code
        ),
        "You are registered.",
    )


@login_required
@require_POST
def tournament_withdraw(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_withdraw(user=request.user, tournament_id=tournament_id),
        "You withdrew; the points you had stay in the standings.",
    )


@login_required
@require_POST
def tournament_start(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_start(user=request.user, tournament_id=tournament_id),
        "Round 1 is seated: the tables are below.",
    )


def invite_page(request: HttpRequest, code: str) -> HttpResponse:
    tournament = Tournament.objects.filter(invite_code=code).first()
    if tournament is None:
        return _refusal(request, "This invite link matches no tournament.", 404)
    return render(request, "tournaments/invite.html", {"t": tournament, "code": code})


def _int(raw: str | None, default: int) -> int:
    return int(raw) if raw and raw.isdigit() and len(raw) < 7 else default


def deal_page(request: HttpRequest, tournament_id: int, number: int, seats: int) -> HttpResponse:
    """The tables of one deal side by side at the same move of the same round of the game:
    ``?round=R&step=K`` (K moves into round R at each table)."""
    try:
        tournament = selectors.tournament_for(tournament_id=tournament_id, viewer=request.user)
        tables = selectors.deal_tables(tournament=tournament, number=number, seats=seats)
    except games.ServiceError as exc:
        return _refusal(request, exc.message, exc.status)
    game_round = max(1, _int(request.GET.get("round"), 1))
    step = _int(request.GET.get("step"), 0)
    panes = [
        deal_pane(rt, viewer=request.user, game_round=game_round, step=step) for rt, _ in tables
    ]
    longest = max((p.length for p in panes), default=0)
    rounds_total = max((p.rounds for p in panes), default=0) or 7
    return render(
        request,
        "tournaments/deal.html",
        {
            "t": tournament,
            "number": number,
            "seats": seats,
            "panes": panes,
            "game_round": game_round,
            "step": step,
            "rounds": range(1, rounds_total + 1),
            "prev_step": step - 1 if step > 0 else None,
            "next_step": step + 1 if step < longest else None,
            "longest": longest,
        },
    )
