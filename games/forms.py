from __future__ import annotations

from typing import Any

from django import forms

from games.engine import RULESETS
from games.models import MAX_SEATS, BotLevel
from games.options import TABLE_DEFAULTS
from games.services.pace import PACES
from games.services.play_now import PLAY_NOW_WINDOW_CHOICES, PLAY_NOW_WINDOW_SECONDS
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

# A table's join rule (issue 29): the share of their last games a player must have finished.
MIN_RELIABILITY = [
    ("", "anyone may join"),
    (0.5, "50% of their games"),
    (0.8, "80% of their games"),
    (0.9, "90% of their games"),
    (0.95, "95% of their games"),
]


# The bot levels of games/engine/bots/, as a player reads them.
BOT_LEVELS = [
    (BotLevel.EASY, "easy"),
    (BotLevel.NORMAL, "normal"),
    (BotLevel.STRONG, "strong"),
    (BotLevel.EXPERT, "expert"),
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
    """ "Play now": the bots' level and the seconds to say "May I?" (remembered on the
    profile); the rest is made for play against bots."""

    level = bot_level_field("Bots")
    window_seconds = forms.TypedChoiceField(
        label="Time to say “May I?”",
        choices=[(s, f"{s} s") for s in PLAY_NOW_WINDOW_CHOICES],
        coerce=int,
        # Left out (an older page, a script): the one chosen last.
        required=False,
        empty_value=None,
        initial=PLAY_NOW_WINDOW_SECONDS,
        widget=forms.RadioSelect,
    )

    def clean_level(self) -> str:
        return str(self.cleaned_data["level"] or BotLevel.NORMAL)


class BotsForm(forms.Form):
    """The table page's "Fill empty seats with bots"; no level: the table's own."""

    level = bot_level_field("Bots play")

    def clean_level(self) -> str | None:
        return str(self.cleaned_data["level"]) if self.cleaned_data["level"] else None


def rulesets_seating(seats: int) -> list[str]:
    """The rulesets whose engine range allows a table of ``seats`` (the engine's
    ``min_players``/``max_players``, never retyped here)."""
    return [
        n for n in ruleset_names() if RULESETS[n].min_players <= seats <= RULESETS[n].max_players
    ]


class SeatsSelect(forms.Select):
    """The seats menu, each count marked with the rulesets that allow it: the lobby offers 2
    seats only under a ruleset that plays with 2 (static/js/lobby.js)."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if value not in ("", None):
            option["attrs"]["data-rulesets"] = " ".join(rulesets_seating(int(value)))
        return option


class TableForm(forms.Form):
    ruleset = forms.ChoiceField(choices=[], initial="bga")
    seats = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(FEWEST_SEATS, MAX_SEATS + 1)],
        coerce=int,
        initial=4,
        widget=SeatsSelect,
    )
    turn_seconds = forms.TypedChoiceField(
        label="Turn clock", choices=TURN_CLOCKS, coerce=int, initial=TABLE_DEFAULTS.turn_seconds
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
        label="“May I?” window",
        choices=WINDOW_TIMERS,
        coerce=int,
        initial=TABLE_DEFAULTS.window_seconds,
    )
    strikes = forms.IntegerField(
        label="Missed turns before expulsion",
        min_value=1,
        max_value=TABLE_DEFAULTS.max_strikes,
        initial=TABLE_DEFAULTS.strikes,
    )
    # Who may join (games/services/join_rules.py): empty is anyone.
    min_reliability = forms.TypedChoiceField(
        label="Players who finish at least",
        choices=MIN_RELIABILITY,
        coerce=float,
        empty_value=None,
        required=False,
        help_text="of their last games in their seat (new players, under 5 games, cannot join)",
    )
    max_timeouts = forms.IntegerField(
        label="At most this many turns timed out in their last games",
        min_value=0,
        max_value=1000,
        required=False,
        help_text="empty: no limit",
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
        "min_reliability",
        "max_timeouts",
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
        seats = data.get("seats")
        if (
            rules is not None
            and seats is not None
            and not rules.min_players <= seats <= rules.max_players
        ):
            self.add_error(
                "seats",
                f"{TITLES.get(rules.name, rules.name)} is for {rules.min_players} to "
                f"{rules.max_players} players: choose a number in that range.",
            )
        return data


class LobbyFilterForm(forms.Form):
    """The open tables' filters (GET): ruleset, pace, seats free (games/services/pace.py)."""

    ruleset = forms.ChoiceField(label="Ruleset", required=False, choices=[])
    pace = forms.ChoiceField(
        label="Pace",
        required=False,
        choices=[("", "any pace"), *PACES.items()],
    )
    seats_free = forms.TypedChoiceField(
        label="Seats free",
        required=False,
        coerce=int,
        choices=[(n, f"at least {n}") for n in range(1, MAX_SEATS)],
        initial=1,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Ids of its own: the lobby also shows the new-table form, whose ruleset and seats
        # fields would otherwise share "id_ruleset" and "id_seats" (duplicate ids break the
        # labels and screen readers). The names, the query parameters, stay as they are.
        kwargs.setdefault("auto_id", "filter_%s")
        super().__init__(*args, **kwargs)
        ruleset = self.fields["ruleset"]
        assert isinstance(ruleset, forms.ChoiceField)
        ruleset.choices = [("", "any ruleset"), *((n, TITLES.get(n, n)) for n in ruleset_names())]


class InviteForm(forms.Form):
    invite_code = forms.CharField(max_length=32)


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=366, initial=1)


class SleepForm(forms.Form):
    """Nightly sleep hours: the turn clocks stop then (at most 10 h, in my time zone)."""

    sleep_start = forms.TimeField(
        label="I sleep from", required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    sleep_end = forms.TimeField(
        label="to", required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
