"""Two-factor sign-in for staff: set up an authenticator app (a QR code), get recovery codes;
and a member's appeal of a restriction from their profile or the sign-in refusal page.

Thin: the services do the work. The 2FA page is for staff only; anyone else is told so.
"""

from __future__ import annotations

import segno
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST
from django_otp import login as otp_login

from games.services import ServiceError

from . import services
from .appeal_tokens import appeal_token_read


@login_required
@require_http_methods(["GET", "POST"])
def otp_setup(request: HttpRequest) -> HttpResponse:
    user = request.user
    if not (isinstance(user, User) and user.is_staff):
        return render(
            request,
            "games/error.html",
            {"message": "Two-factor sign-in is for the site's staff."},
            status=403,
        )
    verified = bool(getattr(user, "is_verified", lambda: False)())
    context: dict = {"verified": verified, "enrolled": services.otp_enrolled(user)}
    if request.method == "POST" and request.POST.get("step") == "codes":
        if not verified:
            context["error"] = "Sign in to the admin with your code first."
        else:
            context["codes"] = services.otp_recovery_codes_new(user=user)
        return render(request, "moderation/otp_setup.html", context)
    if context["enrolled"]:
        return render(request, "moderation/otp_setup.html", context)
    if request.method == "POST":
        try:
            device, codes = services.otp_device_confirm(
                user=user, token=request.POST.get("token", "")
            )
        except services.ModerationRefused as exc:
            context["error"] = exc.message
        else:
            # This session has just proven the second factor: the admin opens without asking.
            otp_login(request, device)
            context.update(enrolled=True, verified=True, codes=codes)
            return render(request, "moderation/otp_setup.html", context)
    device = services.otp_device_pending(user=user)
    context["qr"] = segno.make(device.config_url, error="m").svg_inline(scale=4, border=2)
    context["secret"] = _spaced(device.config_url.split("secret=")[1].split("&")[0])
    return render(
        request, "moderation/otp_setup.html", context, status=400 if "error" in context else 200
    )


def _spaced(key: str) -> str:
    return " ".join(key[i : i + 4] for i in range(0, len(key), 4))


@require_POST
def appeal_post(request: HttpRequest) -> HttpResponse:
    """A member appeals a restriction: signed in (their profile) or with the token of the
    sign-in refusal page (a suspended member has no session)."""
    user = request.user if request.user.is_authenticated else None
    try:
        restriction_id = int(request.POST.get("restriction", ""))
    except ValueError:
        restriction_id = 0
    if user is None:
        found = appeal_token_read(request.POST.get("token", ""))
        if found is None or found[1] != restriction_id:
            return _appeal_page(request, "This form is too old: sign in again to appeal.", 400)
        user = get_user_model()._default_manager.filter(pk=found[0]).first()
        if user is None:
            return _appeal_page(request, "This form is too old: sign in again to appeal.", 400)
    try:
        services.appeal_file(
            actor=user, restriction_id=restriction_id, text=request.POST.get("text", "")
        )
    except ServiceError as exc:
        return _appeal_page(request, exc.message, exc.status)
    return _appeal_page(request, "", 200)


def _appeal_page(request: HttpRequest, error: str, status: int) -> HttpResponse:
    return render(request, "moderation/appeal_sent.html", {"error": error}, status=status)
