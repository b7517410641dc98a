from django.apps import AppConfig

from games import hooks


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "tournaments"

    def ready(self) -> None:
        # A tournament table's game that ends queues the tournament's next step at once
        # (games/hooks.py: games never imports tournaments).
        from . import services

        hooks.on_game_ended(services.tournament_table_ended)
