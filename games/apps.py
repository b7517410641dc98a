from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out

from accounts import hooks as accounts_hooks
from games import broadcast, embedded


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The profile page (accounts) shows my games and my clocks' vacation and sleep hours
        # without importing games (accounts/hooks.py); the views need the models.
        from . import views

        accounts_hooks.provide_profile(views.profile_part)
        user_logged_out.connect(
            broadcast.on_logged_out, dispatch_uid="games.broadcast.on_logged_out"
        )

        # Only daphne started by ./scripts/start sets the flag: never tests, manage.py or a
        # separate worker.
        if embedded.wanted():
            embedded.start()
