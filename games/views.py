"""Server-rendered pages: the lobby and a table. Table life (join, leave, bots, start) uses plain
forms; the game is drawn and played by static/js/table.js (JSON API + the table's websocket)."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Profile
from accounts.requests import SignedInRequest
from games import services
from games.engine import rules_summary
from games.forms import (
    BotsForm,
    InviteForm,
    LobbyFilterForm,
    PlayNowForm,
    SleepForm,
    TableForm,
    VacationForm,
)
from games.models import Seat, Table
from games.services.pace import LobbyFilters
from mayi_site.ratelimits import ratelimited


def home(request: HttpRequest) -> HttpResponse:
    return _home(request, TableForm())


def _home(request: HttpRequest, form: TableForm, status: int = 200) -> HttpResponse:
    """The lobby: "Play now", my games (the ones waiting on me first), open tables, the create
    form; to a signed-out visitor, what the game is and the way in."""
    filters = LobbyFilters.parse(request.GET)
    lobby = services.lobby_for_user(user=request.user, filters=filters)
    return render(
        request,
        "games/home.html",
        {
            "lobby": lobby,
            "filter_form": _filter_form(filters),
            "form": form,
            "invite_form": InviteForm(),
            "play_now_form": _play_now_form(request),
        },
        status=status,
    )


def _play_now_form(request: HttpRequest) -> PlayNowForm:
    """ "Play now" with the "May I?" window this player chose last (on any device)."""
    window = (
        services.profile_play_now_window(user=request.user)
        if request.user.is_authenticated
        else services.PLAY_NOW_WINDOW_SECONDS
    )
    return PlayNowForm(initial={"window_seconds": window})


@require_GET
@never_cache
def lobby_lists(request: HttpRequest) -> HttpResponse:
    """My games, the open tables and the games to watch alone, as the home page shows them: a
    lobby left open fetches them again (static/js/lobby.js)."""
    filters = LobbyFilters.parse(request.GET)
    lobby = services.lobby_for_user(user=request.user, filters=filters)
    return render(
        request,
        "games/_lobby_lists.html",
        {"lobby": lobby, "filter_form": _filter_form(filters)},
    )


def _filter_form(filters: LobbyFilters) -> LobbyFilterForm:
    """The open tables' filters as chosen (the lists fetched again keep them)."""
    return LobbyFilterForm(
        initial={"ruleset": filters.ruleset, "pace": filters.pace, "seats_free": filters.seats_free}
    )


@login_required
@ratelimited("table_create")
def play_now(request: SignedInRequest) -> HttpResponse:
    """POST: a started table against bots, at once. GET (a sign-in's ``next`` lands here, and
    a GET must not create anything): the one button to press."""
    if request.method != "POST":
        return render(request, "games/play_now.html", {"play_now_form": _play_now_form(request)})
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            "Choose how well the bots play (easy, normal, strong or expert) and your time to say "
            "“May I?”.",
        )
        return redirect("home")
    try:
        table = services.table_play_now(
            user=request.user,
            level=form.cleaned_data["level"],
            window_seconds=form.cleaned_data["window_seconds"],
        )
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
@ratelimited("table_create")
def table_create(request: SignedInRequest) -> HttpResponse:
    form = TableForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    try:
        table = services.table_create(host=request.user, **form.cleaned_data)
    except services.ServiceError as exc:
        form.add_error(None, exc.message)
        return _home(request, form, status=400)
    return redirect("table", table_id=table.pk)


@login_required
def table_page(request: SignedInRequest, table_id: int) -> HttpResponse:
    try:
        table, seats = services.table_get_for_user(table_id=table_id, user=request.user)
    except services.ServiceError as exc:
        return render(request, "games/error.html", {"message": exc.message}, status=exc.status)
    payload = services.table_payload(table, seats, request.user)
    # Opening the page is looking at the table: "since you last looked" counts from here
    # (the payload above carries the version seen before, meta.last_seen_version).
    services.seat_mark_seen(seats=seats, user=request.user, version=table.version)
    # The game itself is drawn by static/js/table.js from this payload (the same JSON as
    # GET /api/tables/<id>), then from the frames of the table's websocket.
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "meta": payload["table"],
            "payload": payload,
            "view": payload["view"],
            "is_host": table.host_id == request.user.pk,
            # "Fill empty seats with bots": at the level chosen when the table was made.
            "bots_form": BotsForm(initial={"level": table.options.get("bot_level", "normal")}),
            # The "?" panel: the table's contracts and penalty points, from the engine.
            "rules": rules_summary(table.ruleset, (table.state or {}).get("options")),
            # Reliability beside each name, follow/block, friends to invite (issue 29).
            "trust": services.table_trust(table=table, seats=seats, user=request.user),
        },
    )


def _table_action(request: SignedInRequest, table_id: int, action: str) -> HttpResponse:
    try:
        if action == "join":
            services.table_join(user=request.user, table_id=table_id)
        elif action == "leave":
            table = services.table_leave(user=request.user, table_id=table_id)
            if table.status == Table.Status.ABORTED:
                messages.info(request, "You left; the table is closed.")
            return redirect("home")
        elif action == "bots":
            form = BotsForm(request.POST)
            if not form.is_valid():
                messages.error(
                    request, "Choose how well the bots play: easy, normal, strong or expert."
                )
                return redirect("table", table_id=table_id)
            # No level: the one chosen when the table was made.
            level = form.cleaned_data["level"]
            services.table_fill_with_bots(user=request.user, table_id=table_id, level=level)
        elif action == "start":
            services.table_start(user=request.user, table_id=table_id)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("table", table_id=table_id)


@login_required
@require_POST
def table_join(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _table_action(request, table_id, "join")


@login_required
@require_POST
def table_leave(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _table_action(request, table_id, "leave")


@login_required
@require_POST
def table_bots(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _table_action(request, table_id, "bots")


@login_required
@require_POST
def table_start(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _table_action(request, table_id, "start")


@login_required
@require_POST
def join_by_invite(request: SignedInRequest) -> HttpResponse:
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            table = services.table_join(
                user=request.user, invite_code=form.cleaned_data["invite_code"]
            )
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            return redirect("table", table_id=table.pk)
    else:
        messages.error(request, "Enter an invite code.")
    return redirect("home")


@login_required
@require_POST
def table_buy_order(request: SignedInRequest, table_id: int) -> HttpResponse:
    """The standing order control on the table page (the API has POST .../orders)."""
    limit_text = request.POST.get("limit", "").strip()
    try:
        limit = int(limit_text) if limit_text else None
        services.seat_set_buy_order(
            table_id=table_id,
            user=request.user,
            order=request.POST.get("order", ""),
            limit=limit,
        )
    except ValueError:
        messages.error(request, "The number of buys must be a whole number.", extra_tags="orders")
    except services.ServiceError as exc:
        messages.error(request, exc.message, extra_tags="orders")
    else:
        messages.success(request, "Standing order saved.", extra_tags="orders")
    # Back to the box, open, the answer in it (the page's top is a screen away on a phone).
    return redirect(reverse("table", args=[table_id]) + "#orders")


def invite_page(request: HttpRequest, code: str) -> HttpResponse:
    """What an invite link opens: the table it leads to, and a button to take a seat; to a
    signed-out visitor, sign up or log in first, and come back here (``next``)."""
    table = Table.objects.select_related("host").filter(invite_code=code).first()
    if table is None:
        return render(
            request, "games/error.html", {"message": "This invite link is not valid."}, status=404
        )
    table, seats = services.read_table_with_seats(table.pk, lock=False)
    return render(
        request,
        "games/invite.html",
        {
            "table": table,
            "code": code,
            "seats": seats,
            "trust": services.table_trust(table=table, seats=seats, user=request.user),
        },
    )


# -- the profile page's part (accounts/hooks.py): my games, my clocks' vacation and sleep ------
def profile_part(*, user: User, profile: Profile, now: datetime) -> dict[str, object]:
    """What the member's profile page shows of their games: the tables they sat at (not the
    aborted ones), how many they finished, and their clocks' vacation and sleep hours with the
    forms that set them (posted to the views below)."""
    seats = (
        Seat.objects.filter(user=user)
        .select_related("table")
        .exclude(table__status=Table.Status.ABORTED)
        .order_by("-table__created")[:50]
    )
    finished = Seat.objects.filter(user=user, table__status=Table.Status.FINISHED).count()
    return {
        "vacation_form": VacationForm(),
        "sleep_form": SleepForm(
            initial={"sleep_start": profile.sleep_start, "sleep_end": profile.sleep_end}
        ),
        "sleep_zone": profile.time_zone or "UTC",
        "vacation_until": profile.vacation_until
        if profile.vacation_until and profile.vacation_until > now
        else None,
        "vacation_days_left": services.vacation_days_left(profile, now),
        "seats": seats,
        "games_finished": finished,
    }


@login_required
@require_POST
def vacation_start(request: SignedInRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter a number of days.")
        return redirect("profile")
    try:
        services.vacation_start(user=request.user, days=form.cleaned_data["days"])
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Your clocks are paused.")
    return redirect("profile")


@login_required
@require_POST
def vacation_end(request: SignedInRequest) -> HttpResponse:
    services.vacation_end(user=request.user)
    messages.success(request, "Welcome back: your clocks run again.")
    return redirect("profile")


@login_required
@require_POST
def sleep_save(request: SignedInRequest) -> HttpResponse:
    form = SleepForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter the sleep hours as times (22:30), or leave both empty.")
        return redirect("/accounts/profile/#vacation")
    start, end = form.cleaned_data["sleep_start"], form.cleaned_data["sleep_end"]
    try:
        services.sleep_hours_set(user=request.user, start=start, end=end)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            "Sleep hours saved: your clocks stop then."
            if start is not None
            else "No sleep hours: your clocks run all night.",
        )
    return redirect("/accounts/profile/#vacation")
