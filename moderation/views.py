"""Two-factor sign-in for staff: set up an authenticator app (a QR code), get recovery codes.

Thin: the services do the work. Staff only; anyone else is told the page is not for them.
"""

from __future__ import annotations

import segno
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login

from . import services


@login_required
@require_http_methods(["GET", "POST"])
def otp_setup(request: HttpRequest) -> HttpResponse:
    user = request.user
    if not user.is_staff:  # type: ignore[union-attr]
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
