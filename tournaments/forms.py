"""The new-tournament form of the tournaments page (the API takes the same fields)."""

from __future__ import annotations

from django import forms

RULESETS = [("bga", "bga"), ("petras", "petras"), ("classic", "classic"), ("rook", "rook")]
HOURS = 3600


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80)
    ruleset = forms.ChoiceField(choices=RULESETS, initial="bga")
    table_size = forms.IntegerField(label="Players per table", min_value=3, max_value=6, initial=4)
    rounds = forms.IntegerField(min_value=1, max_value=20, initial=3)
    turn_hours = forms.IntegerField(
        label="Turn clock (hours)", min_value=1, max_value=720, initial=24
    )
    window_minutes = forms.IntegerField(
        label="“May I?” window (minutes)", min_value=1, max_value=1440, initial=60
    )
    round_days = forms.IntegerField(
        label="Days per round",
        min_value=1,
        max_value=90,
        initial=7,
        help_text="games still being played then are finished by the bots",
    )
    max_players = forms.IntegerField(label="Most players", min_value=3, max_value=512, initial=32)
    public = forms.BooleanField(
        label="Listed for everyone (else by invite link)", required=False, initial=True
    )
