from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games import embedded, live

        user_logged_out.connect(live.on_logged_out, dispatch_uid="games.live.on_logged_out")

        # Only daphne started by ./scripts/start sets the flag: never tests, manage.py or a
        # separate worker.
        if embedded.wanted():
            embedded.start()
