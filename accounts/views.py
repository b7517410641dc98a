from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.forms import EmailForm, ReminderForm, VacationForm
from accounts.models import ApiToken, Profile
from accounts.requests import SignedInRequest
from accounts.tokens import token_issue
from games import services
from games.models import RoundResult, Seat, Table
from games.ratelimits import ratelimited
from moderation.selectors import reports_filed_by


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {
            "email": "Optional, never shown to other players: for turn reminders and password "
            "resets (you can add it later on your profile)."
        }


def _safe_next(request: HttpRequest) -> str:
    """The page to go on to after signing up (an invite link, "Play now"), if it is ours."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@ratelimited("signup_ip", by="ip")
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Another sign-up took the name between the form's check and the insert.
            form.add_error("username", "A user with that username already exists.")
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}!")
            return redirect(next_url or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url},
        status=400 if form.errors else 200,
    )


@login_required
def profile(request: SignedInRequest) -> HttpResponse:
    user = request.user
    seats = (
        Seat.objects.filter(user=user)
        .select_related("table")
        .exclude(table__status=Table.Status.ABORTED)
        .order_by("-table__created")[:50]
    )
    finished = Seat.objects.filter(user=user, table__status=Table.Status.FINISHED).count()
    # Aborted tables count for nothing here, as in the statistics (and the list above).
    rounds = (
        RoundResult.objects.filter(user=user)
        .exclude(table__status=Table.Status.ABORTED)
        .aggregate(
            rounds=Count("id"),
            went_out=Count("id", filter=Q(went_out=True)),
            points=Sum("score"),
            mayi_melds=Sum("mayi_melds"),
        )
    )
    token = ApiToken.objects.filter(user=user).first()
    profile = Profile.objects.for_user(user)
    now = timezone.now()
    return render(
        request,
        "accounts/profile.html",
        {
            "reminder_form": ReminderForm(instance=profile),
            "email_form": EmailForm(user),
            "vacation_form": VacationForm(),
            "vacation_until": profile.vacation_until
            if profile.vacation_until and profile.vacation_until > now
            else None,
            "vacation_days_left": services.vacation_days_left(profile, now),
            "seats": seats,
            "games_finished": finished,
            "rounds": rounds,
            "token": token,
            "stats_hidden": profile.stats_hidden,
            "new_token": request.session.pop("new_api_token", None),
            "reports": reports_filed_by(user),
        },
    )


@login_required
@require_POST
def token_new(request: SignedInRequest) -> HttpResponse:
    # Shown once on the next page view, then only its prefix: the database keeps a hash.
    request.session["new_api_token"] = token_issue(user=request.user)
    return redirect("profile")


@login_required
@require_POST
def reminders_save(request: SignedInRequest) -> HttpResponse:
    profile = Profile.objects.for_user(request.user)
    form = ReminderForm(request.POST, instance=profile)
    if form.is_valid():
        form.save()
        messages.success(request, "Reminder settings saved.")
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(str(e) for e in error))
    return redirect("profile")


@login_required
@require_POST
@ratelimited("email_change")
def email_save(request: SignedInRequest) -> HttpResponse:
    form = EmailForm(request.user, request.POST)
    if form.is_valid():
        email = form.save()
        if email:
            messages.success(request, f"Reminders and password resets go to {email} now.")
        else:
            messages.success(request, "Email address removed: the site will send you no email.")
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(str(e) for e in error))
    # The page's top, where the message says what happened (a wrong password included).
    return redirect("profile")


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
