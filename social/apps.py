from django.apps import AppConfig

from games import providers as games_providers


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends and blocks"

    def ready(self) -> None:
        # The lobby, the join rules and the table pages (games) keep blocked players apart
        # and put friends first without importing social (games/providers.py).
        from . import providers

        games_providers.provide_relations(providers.SocialRelations())
