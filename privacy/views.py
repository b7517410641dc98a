"""The "My data" page: download everything the site holds about me, or delete my account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.requests import SignedInRequest
from accounts.tokens import token_user
from mayi_site.ratelimits import ratelimited

from . import services
from .models import DataExport


@never_cache
@login_required
def data_page(request: SignedInRequest) -> HttpResponse:
    exports = list(DataExport.objects.filter(user=request.user).defer("content")[:5])
    pending = any(e.status == DataExport.Status.PENDING for e in exports)
    return render(
        request,
        "privacy/data.html",
        {"exports": exports, "pending": pending, "hours": services.LINK_HOURS},
    )


@login_required
@require_POST
@ratelimited("data_export")
def export_create(request: SignedInRequest) -> HttpResponse:
    services.export_request(user=request.user)
    messages.info(request, "Your download is being prepared: this page shows it when it is ready.")
    return redirect("privacy_data")


@never_cache
def download(request: HttpRequest, export_id: int, token: str) -> HttpResponse:
    """The zip, to its owner alone (their session, or their API token), for 24 hours."""
    owner_id: int | None = request.user.pk if request.user.is_authenticated else None
    header = str(request.headers.get("Authorization", ""))
    if owner_id is None and header.startswith("Bearer "):
        by_token = token_user(header.removeprefix("Bearer ").strip())
        owner_id = by_token.pk if by_token is not None else None
    export = (
        DataExport.objects.filter(pk=export_id, token=token, user_id=owner_id).first()
        if owner_id is not None
        else None
    )
    if export is None or not services.export_live(export) or export.content is None:
        raise Http404("no such download")
    response = HttpResponse(bytes(export.content), content_type="application/zip")
    stamp = export.created.strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="mayi-my-data-{stamp}.zip"'
    return response


@login_required
@require_POST
@ratelimited("email_change")  # asks for the password: no guessing it through here either
def delete_account(request: SignedInRequest) -> HttpResponse:
    try:
        services.account_delete(user=request.user, password=request.POST.get("password", ""))
    except services.WrongPassword:
        messages.error(request, "That is not your password: nothing was deleted.")
        return redirect("privacy_data")
    logout(request)
    return render(request, "privacy/deleted.html")
