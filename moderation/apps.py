from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"


class StaffAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with our site as the default one (INSTALLED_APPS names this in
    its place): /admin/ then requires staff with a verified second factor."""

    default = False  # "moderation" itself is ModerationConfig
    default_site = "moderation.admin_site.StaffAdminSite"
