from django.apps import AppConfig

from accounts import hooks as accounts_hooks
from games import hooks
from games import providers as games_providers


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "statistics and ratings"

    def ready(self) -> None:
        # The records of a round and the results of a game commit with the move that ended
        # them: games calls these inside its transaction (games/hooks.py), and never imports
        # stats.
        from . import providers, selectors, services

        hooks.on_round_ended(services.stats_round_ended)
        hooks.on_game_ended(services.stats_game_finished)
        # The profile page's sums of the member's rounds (accounts/hooks.py).
        accounts_hooks.provide_profile(selectors.profile_part)
        # The players' reliability and a finished game's rating changes, for the lobby, the
        # join rules and the table (games/providers.py).
        games_providers.provide_trust(providers.StatsTrust())
