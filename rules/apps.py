from django.apps import AppConfig


class RulesConfig(AppConfig):
    """The player-facing rules pages: /rules/ and /rules/<ruleset>/."""

    name = "rules"
    verbose_name = "Rules pages"
