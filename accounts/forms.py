from __future__ import annotations

from zoneinfo import available_timezones

from django import forms

from accounts.models import Profile


class ReminderForm(forms.ModelForm):
    """Reminder emails on or off per kind, and quiet hours (no email then; sent after)."""

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
        if zone not in available_timezones() and zone != "UTC":
            raise forms.ValidationError("Unknown time zone (for example Europe/Paris).")
        return zone

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError("Give both ends of the quiet hours, or neither.")
        return data


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=366, initial=1)
