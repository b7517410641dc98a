from __future__ import annotations

from typing import Any

from django import forms

from games.engine.rulesets import RULESETS
from games.models import MAX_SEATS, BotLevel
from rules.content import TITLES, ruleset_names

# The smallest table any ruleset allows (rook: 2); the engine vets seats per ruleset.
FEWEST_SEATS = min(r.min_players for r in RULESETS.values())

TURN_CLOCKS = [
    (30, "30 seconds"),
    (60, "1 minute"),
    (300, "5 minutes"),
    (3600, "1 hour"),
    (24 * 3600, "1 day"),
    (3 * 24 * 3600, "3 days"),
]
# The time bank (games/services/clocks.py): empty means "the turn clock" (every turn the same).
BANKS = [
    ("", "same as the turn clock"),
    (300, "5 minutes"),
    (3600, "1 hour"),
    (24 * 3600, "1 day"),
    (3 * 24 * 3600, "3 days"),
    (7 * 24 * 3600, "7 days"),
]
WINDOW_TIMERS = [
    (30, "30 seconds"),
    (120, "2 minutes"),
    (3600, "1 hour"),
    (12 * 3600, "12 hours"),
]


# The bot levels of games/engine/bots.py, as a player reads them.
BOT_LEVELS = [
    (BotLevel.EASY, "easy"),
    (BotLevel.NORMAL, "normal"),
    (BotLevel.STRONG, "strong"),
]


def bot_level_field(label: str, help_text: str = "") -> forms.ChoiceField:
    # Not required: a POST without it (an old page, a script) gets the default.
    return forms.ChoiceField(
        label=label,
        choices=BOT_LEVELS,
        initial=BotLevel.NORMAL,
        widget=forms.RadioSelect,
        required=False,
        help_text=help_text,
    )


class PlayNowForm(forms.Form):
    """ "Play now": only the bots' level to choose; the rest is made for play against bots."""

    level = bot_level_field("Bots")

    def clean_level(self) -> str:
        return str(self.cleaned_data["level"] or BotLevel.NORMAL)


class BotsForm(forms.Form):
    """The table page's "Fill empty seats with bots"; no level: the table's own."""

    level = bot_level_field("Bots play")

    def clean_level(self) -> str | None:
        return str(self.cleaned_data["level"]) if self.cleaned_data["level"] else None


class TableForm(forms.Form):
    ruleset = forms.ChoiceField(choices=[], initial="bga")
    seats = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(FEWEST_SEATS, MAX_SEATS + 1)], coerce=int, initial=4
    )
    turn_seconds = forms.TypedChoiceField(
        label="Turn clock", choices=TURN_CLOCKS, coerce=int, initial=24 * 3600
    )
    bank_seconds = forms.TypedChoiceField(
        label="Time bank at the start",
        choices=BANKS,
        coerce=int,
        empty_value=None,
        required=False,
        help_text="Each player starts with this; the turn clock is added after each turn.",
    )
    bank_max_seconds = forms.TypedChoiceField(
        label="Most a time bank holds",
        choices=[("", "the larger of the two"), *BANKS[1:]],
        coerce=int,
        empty_value=None,
        required=False,
    )
    window_seconds = forms.TypedChoiceField(
        label="“May I?” window", choices=WINDOW_TIMERS, coerce=int, initial=3600
    )
    strikes = forms.IntegerField(
        label="Missed turns before expulsion", min_value=1, max_value=20, initial=3
    )
    public = forms.BooleanField(label="Listed in the lobby", required=False, initial=True)
    bot_level = bot_level_field("Bots:", help_text="how well the bots that fill empty seats play")
    round7 = forms.ChoiceField(
        label="Round 7 (rook)",
        choices=[
            ("choice", "each player chooses 3 runs or 4 books"),
            ("runs", "3 runs for all"),
            ("books", "4 books for all"),
        ],
        required=False,
        initial="choice",
    )

    # Fields that are engine options of some rulesets only (RuleSet.options): the lobby shows
    # each under the rulesets that have it (static/js/lobby.js); clean() drops it elsewhere.
    RULESET_OPTION_FIELDS = ("round7",)
    ADVANCED_FIELDS = (
        "turn_seconds",
        "bank_seconds",
        "bank_max_seconds",
        "window_seconds",
        "strikes",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Short names in the menu; the engine's one-line RuleSet.description beside it.
        ruleset = self.fields["ruleset"]
        assert isinstance(ruleset, forms.ChoiceField)
        ruleset.choices = [(name, f"{TITLES.get(name, name)} ({name})") for name in ruleset_names()]

    def ruleset_descriptions(self) -> list[tuple[str, str]]:
        return [(name, RULESETS[name].description) for name in ruleset_names()]

    def advanced_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.ADVANCED_FIELDS]

    def ruleset_option_fields(self) -> list[tuple[forms.BoundField, str]]:
        """(field, the rulesets that have it, space-separated), for data-rulesets."""
        return [
            (
                self[name],
                " ".join(n for n in ruleset_names() if name in RULESETS[n].option_names),
            )
            for name in self.RULESET_OPTION_FIELDS
        ]

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        # round7 is an engine option of the rulesets that have it; the others get none.
        data["bot_level"] = data.get("bot_level") or BotLevel.NORMAL
        round7 = data.pop("round7", None) or "choice"
        rules = RULESETS.get(data.get("ruleset", ""))
        if rules is not None and "round7" in rules.option_names and round7 != "choice":
            data["engine_options"] = {"round7": round7}
        return data


class InviteForm(forms.Form):
    invite_code = forms.CharField(max_length=32)
