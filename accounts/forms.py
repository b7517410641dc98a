from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm

from accounts.hooks import sign_in_refusal
from accounts.models import Profile
from mayi_site.timezones import valid_zone, zone_names


class SignInForm(AuthenticationForm):
    """The login form, which tells a suspended or banned user why they cannot sign in (and
    until when), once they have given the right password: nobody else learns of it. Why is
    moderation's to say (``accounts.hooks.provide_sign_in_refusal``)."""

    # Set when the member gave the right password but may not sign in: the page shows what
    # the moderators told them and a form to appeal (a token in place of the session they
    # cannot have).
    restrictions: Sequence[object] = ()
    appeal_tokens: Mapping[int, str] = {}

    def clean(self) -> dict:
        try:
            return super().clean()
        except forms.ValidationError:
            user = self._inactive_member()
            refusal = sign_in_refusal(user) if user is not None else None
            if refusal is None:
                raise
            self.restrictions = refusal.items
            self.appeal_tokens = refusal.appeal_tokens
            raise forms.ValidationError(refusal.message) from None

    def _inactive_member(self) -> Any:
        """The member the right password names, when the account is not active."""
        if getattr(self.request, "axes_locked_out", False):
            return None  # locked out: the password is not to be tried at all
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or not password:
            return None
        user = get_user_model()._default_manager.filter(username=username).first()
        if user is None or user.is_active or not user.check_password(password):
            return None
        return user


class EmailForm(forms.Form):
    """The address reminders and password resets go to. Changing it asks for the password: a
    session left open somewhere must not be enough to take the account over by a reset."""

    email = forms.EmailField(
        label="Email address", required=False, help_text="empty: no email from us at all"
    )
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["email"].initial = user.email

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: the address was not changed.")
        return password

    def save(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        self.user.email = email
        self.user.save(update_fields=["email"])
        return email


class ReminderForm(forms.ModelForm):
    """Reminder emails on or off per kind, and quiet hours (no email then; sent after)."""

    # A choice from the IANA list (zoneinfo), not free text: every time the site shows is in it.
    time_zone = forms.ChoiceField(
        label="My time zone",
        choices=[(z, z) for z in zone_names()],
        help_text="every time the site shows you is in this zone",
    )

    class Meta:
        model = Profile
        fields = ["email_turn", "email_clock", "quiet_start", "quiet_end", "time_zone"]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}),
        }
        labels = {"quiet_start": "Quiet hours from", "quiet_end": "to"}

    def clean_time_zone(self) -> str:
        zone = self.cleaned_data["time_zone"].strip() or "UTC"
        if not valid_zone(zone):
            raise forms.ValidationError("Unknown time zone (for example Europe/Paris).")
        return zone

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError("Give both ends of the quiet hours, or neither.")
        return data
