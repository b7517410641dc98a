from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import embedded

        # Only daphne started by ./scripts/start sets the flag: never tests, manage.py or a
        # separate worker.
        if embedded.wanted():
            embedded.start()
