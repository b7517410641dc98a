from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """A player's own data: download it all, or delete the account (issue 30)."""

    name = "privacy"
    default_auto_field = "django.db.models.BigAutoField"
