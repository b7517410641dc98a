"""The admin site: staff only, signed in with a second factor (django-otp).

``OTPAdminSite`` asks for a TOTP code (or a recovery code) at the admin's sign-in and lets in
only a session verified that way; Django's own check keeps out anyone who is not active staff,
so a suspended or banned staff member loses the admin at once too.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django_otp import devices_for_user
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite


class StaffSignInForm(OTPAdminAuthenticationForm):
    """django-otp's admin sign-in, which tells staff with no authenticator yet how to set
    one up. Its own answer ("Please enter your OTP token", with no device to pick) left a new
    moderator with no way forward. Said only after the right password, so it tells a stranger
    nothing about the account."""

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
    # The lists need the width (the report queue, the audit log), on phones above all.
    enable_nav_sidebar = False
