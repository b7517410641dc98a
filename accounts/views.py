from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts import hooks, names
from accounts.forms import EmailForm, ReminderForm
from accounts.models import ApiToken, Profile
from accounts.requests import SignedInRequest
from accounts.tokens import token_issue
from mayi_site.ratelimits import ratelimited
from mayi_site.timezones import remember_zone, zone_names


class SignUpForm(UserCreationForm):
    # Offered from the browser's own zone (static/js/timezone.js, Intl.DateTimeFormat).
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=[(z, z) for z in zone_names()],
        initial="UTC",
        required=False,
        help_text="Times on the site are shown in it (your browser's, if it says).",
        widget=forms.Select(attrs={"data-browser-zone": ""}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {
            "email": "Optional, never shown to other players: for turn reminders and password "
            "resets (you can add it later on your profile)."
        }

    def clean_username(self) -> str:
        name = str(super().clean_username())
        if names.reserved(name):
            raise forms.ValidationError("Names starting with “deleted-” are the site's own.")
        other = names.lookalike_of(name)
        if other is not None:
            raise forms.ValidationError(
                f"This name looks too much like the player “{other}”: choose one that reads "
                "differently."
            )
        return name


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
                profile = Profile.objects.for_user(user)
                profile.time_zone = form.cleaned_data["time_zone"] or "UTC"
                profile.save(update_fields=["time_zone"])
            remember_zone(user.pk, profile.time_zone)
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
    """The member's own page: what accounts keeps (reminders, email, token), and what each app
    built on it adds (games: the seats and the clocks; stats: the rounds; moderation: the
    reports and restrictions), registered in accounts/hooks.py."""
    user = request.user
    token = ApiToken.objects.filter(user=user).first()
    profile = Profile.objects.for_user(user)
    return render(
        request,
        "accounts/profile.html",
        {
            "reminder_form": ReminderForm(instance=profile),
            "email_form": EmailForm(user),
            "token": token,
            "stats_hidden": profile.stats_hidden,
            "new_token": request.session.pop("new_api_token", None),
            **hooks.profile_context(user=user, profile=profile, now=timezone.now()),
        },
    )


@login_required
@require_POST
def token_new(request: SignedInRequest) -> HttpResponse:
    # Shown once on the next page view, then only its prefix: the database keeps a hash. The
    # session is written while the issue still holds the user's row lock, so that of two issues
    # at once (two tabs, a double click) the token the session shows is the one that was kept;
    # saved by the middleware after the commit, the session could end with the revoked one.
    with transaction.atomic():
        request.session["new_api_token"] = token_issue(user=request.user)
        request.session.save()
        request.session.modified = False
    return redirect("profile")


@login_required
@require_POST
def reminders_save(request: SignedInRequest) -> HttpResponse:
    profile = Profile.objects.for_user(request.user)
    form = ReminderForm(request.POST, instance=profile)
    if form.is_valid():
        form.save()
        remember_zone(request.user.pk, profile.time_zone)
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
