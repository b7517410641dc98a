from django.apps import AppConfig


class BenchConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "benchapp"
    verbose_name = "Bench (the floor of the stack)"
