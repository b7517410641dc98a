from django.apps import AppConfig

from games import hooks


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = "game analysis"

    def ready(self) -> None:
        # A finished game gets its pending analysis in the transaction of its last move, its
        # task queued after the commit when the queue is short (games/hooks.py: games never
        # imports analysis).
        from . import services

        hooks.on_game_ended(services.analysis_game_ended)
