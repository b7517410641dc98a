from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from . import admin_site

        # Before any URL is resolved: /admin/ then requires a verified second factor.
        admin_site.install()
