"""The admin site: staff only, signed in with a second factor (django-otp).

``OTPAdminSite`` asks for a TOTP code (or a recovery code) at the admin's sign-in and lets in
only a session verified that way; Django's own check keeps out anyone who is not active staff,
so a suspended or banned staff member loses the admin at once too.
"""

from __future__ import annotations

from django_otp.admin import OTPAdminSite


class StaffAdminSite(OTPAdminSite):
    site_header = "May I? moderation"
    site_title = "May I? admin"
    index_title = "Moderation"
    # The lists need the width (the report queue, the audit log), on phones above all.
    enable_nav_sidebar = False
