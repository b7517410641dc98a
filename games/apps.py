from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out

from games import broadcast, embedded


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        user_logged_out.connect(
            broadcast.on_logged_out, dispatch_uid="games.broadcast.on_logged_out"
        )

        # Only daphne started by ./scripts/start sets the flag: never tests, manage.py or a
        # separate worker.
        if embedded.wanted():
            embedded.start()
