"""The statistics page's "Analyse" button: a player asks for the analysis of a finished game of
theirs (thin: one service; rate-limited as the API's POST)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.requests import SignedInRequest
from games.services import ServiceError
from mayi_site.ratelimits import ratelimited

from . import services


@login_required
@require_POST
@ratelimited("analysis")
def analysis_ask(request: SignedInRequest, table_id: int) -> HttpResponse:
    """POST: queue the analysis, then back to ``next`` (the statistics page) with a word."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("table_replay", args=[table_id])
    try:
        read = services.analysis_request(table_id=table_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(target)
    if read.ready:
        messages.info(request, f"Game #{table_id} is analysed: its replay shows each decision.")
    else:
        messages.success(
            request,
            f"Game #{table_id} will be analysed shortly: its replay then marks each decision.",
        )
    return redirect(target)
