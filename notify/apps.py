from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Bringing players back: web push, nudges and the daily digest."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notify"
