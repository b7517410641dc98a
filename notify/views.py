"""Pages of the notify app: the service worker at the site's root, and the profile's push
preferences."""

from __future__ import annotations

from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.requests import SignedInRequest

from . import digest, services
from .models import NotifyPrefs

SERVICE_WORKER = Path(__file__).resolve().parent / "static" / "notify" / "sw.js"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: from the root, so its scope is the whole site (a worker's scope is at most
    its own folder). Never cached long: a new version must reach the browsers."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@login_required
@require_POST
def push_prefs_save(request: SignedInRequest) -> HttpResponse:
    flags = {name: name in request.POST for name in services.PREF_OF_KIND.values()}
    services.push_prefs_save(user=request.user, **flags)
    messages.success(request, "Push notification settings saved.")
    return redirect("/accounts/profile/#push")


def pref_fields(prefs: NotifyPrefs) -> list[tuple[str, str, bool]]:
    """(field name, label, on) of each pushed event, for the profile's form."""
    found = []
    for name in services.PREF_OF_KIND.values():
        field = NotifyPrefs._meta.get_field(name)
        label = str(getattr(field, "verbose_name", name))
        found.append((name, label, bool(getattr(prefs, name))))
    return found


@login_required
@require_POST
def digest_prefs_save(request: SignedInRequest) -> HttpResponse:
    prefs, _ = NotifyPrefs.objects.get_or_create(user=request.user)
    prefs.digest_on = "digest_on" in request.POST
    try:
        hour = int(request.POST.get("digest_hour", prefs.digest_hour))
    except ValueError:
        hour = -1
    if 0 <= hour <= 23:
        prefs.digest_hour = hour
        prefs.save(update_fields=["digest_on", "digest_hour"])
        messages.success(request, "Daily digest settings saved.")
    else:
        messages.error(request, "Choose an hour from 0 to 23.")
    return redirect("/accounts/profile/#digest")


# A mail client's one-click unsubscribe (RFC 8058) POSTs without a session or a CSRF token:
# the signed token in the address is the authority, and all it can do is turn a digest off.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def digest_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with one button (a link scanner's GET changes nothing); POST: off."""
    user = digest.user_of_token(token)
    if user is None:
        return render(request, "notify/unsubscribe.html", {"bad": True}, status=400)
    done = request.method == "POST"
    if done:
        digest.digest_unsubscribe(user=user)
    return render(request, "notify/unsubscribe.html", {"done": done, "who": user.get_username()})
