from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db.models import Count, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.models import ApiToken
from accounts.tokens import token_issue
from games.models import RoundResult, Seat, Table


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}!")
        return redirect("home")
    return render(
        request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    seats = (
        Seat.objects.filter(user=user)
        .select_related("table")
        .exclude(table__status=Table.Status.ABORTED)
        .order_by("-table__created")[:50]
    )
    finished = Seat.objects.filter(user=user, table__status=Table.Status.FINISHED).count()
    rounds = RoundResult.objects.filter(user=user).aggregate(
        rounds=Count("id"),
        went_out=Count("id", filter=Q(went_out=True)),
        points=Sum("score"),
        mayi_melds=Sum("mayi_melds"),
    )
    token = ApiToken.objects.filter(user=user).first()
    return render(
        request,
        "accounts/profile.html",
        {
            "seats": seats,
            "games_finished": finished,
            "rounds": rounds,
            "token": token,
            "new_token": request.session.pop("new_api_token", None),
        },
    )


@login_required
@require_POST
def token_new(request: HttpRequest) -> HttpResponse:
    # Shown once on the next page view, then only its prefix: the database keeps a hash.
    request.session["new_api_token"] = token_issue(user=request.user)
    return redirect("profile")
