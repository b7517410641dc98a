"""The admin site: staff only, signed in with a second factor (django-otp).

``OTPAdminSite`` asks for a TOTP code (or a recovery code) at the admin's sign-in and lets in
only a session verified that way; Django's own check keeps out anyone who is not active staff,
so a suspended or banned staff member loses the admin at once too.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django_otp import devices_for_user
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from .selectors import moderator_desk


class StaffSignInForm(OTPAdminAuthenticationForm):
    """django-otp's admin sign-in, which tells staff with no authenticator yet how to set
    one up. Its own answer ("Please enter your OTP token", with no device to pick) left a new
    moderator with no way forward. Said only after the right password, so it tells a stranger
    nothing about the account."""

    otp_error_messages = {
        **OTPAdminAuthenticationForm.otp_error_messages,
        "token_required": "Type the code your authenticator app shows, or a recovery code.",
        "invalid_token": "That code is not right: type the one your app shows now, or an "
        "unused recovery code.",
        # Only when the user has no device of the kind the code looks like.
        "device_required": "That code is not right: type the one your app shows now, or an "
        "unused recovery code.",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["otp_token"].label = "Two-factor code"
        self.fields["otp_token"].widget.attrs.update(
            autocomplete="one-time-code", autocapitalize="none", spellcheck="false"
        )
        self.fields["otp_token"].widget.attrs["aria-describedby"] = "otp-help"

    def _chosen_device(self, user: Any) -> Any:
        """The device picked, else the one the code's shape names: six digits are the
        authenticator app's, anything else one of the recovery codes. django-otp's form asked
        to pick a device first, so a moderator who typed the app's code with the password was
        told "Please select a device." and typed it all again. One device is tried either way
        (trying them all would count a failure against each that did not match)."""
        device = super()._chosen_device(user)
        token = (self.cleaned_data.get("otp_token") or "").strip()
        if device is not None or not token:
            return device
        if token.isdigit():
            return TOTPDevice.objects.devices_for_user(user, confirmed=True).first()
        return StaticDevice.objects.devices_for_user(user, confirmed=True).first()

    def clean_otp(self, user: Any) -> None:
        if user is not None and user.is_staff and not any(devices_for_user(user)):
            setup = reverse("otp_setup")
            raise forms.ValidationError(
                "You have not set up two-factor sign-in yet. Sign in to the site, then open "
                "“Two-factor sign-in (staff)” on your profile page (%(setup)s) and follow it; "
                "then come back here with the code your authenticator app shows.",
                params={"setup": setup},
            )
        super().clean_otp(user)


class StaffAdminSite(OTPAdminSite):
    site_header = "May I? moderation"
    site_title = "May I? admin"
    index_title = "Moderation"
    login_form = StaffSignInForm
    login_template = "admin/moderation/login.html"
    index_template = "admin/moderation/index.html"
    # The lists need the width (the report queue, the audit log), on phones above all.
    enable_nav_sidebar = False

    def index(self, request: HttpRequest, extra_context: dict | None = None) -> TemplateResponse:
        # Django's "Recent actions" read its own LogEntry, which no moderation writes (the
        # audit log is ours): it said "None available" for ever. The desk says what waits.
        user = request.user
        # The admin site's index is shown to signed-in staff only (admin_view).
        assert isinstance(user, User)
        desk = moderator_desk(user)
        return super().index(request, {**(extra_context or {}), "desk": desk})
