from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps

from accounts import hooks as accounts_hooks
from chat import hooks as chat_hooks


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        # The sign-in hook (linked accounts, unread messages) and the automatic reports'.
        from . import audit, receivers, selectors, signin  # noqa: F401

        # Chat asks moderation who is muted and has it audit a hidden message, without
        # importing moderation (chat/hooks.py).
        chat_hooks.provide_mute(selectors.muted_until)
        chat_hooks.on_hidden(audit.audit_chat_hidden)
        # The profile page shows a member's reports and restrictions, and the sign-in form
        # says why a suspended or banned member is refused, without accounts importing
        # moderation (accounts/hooks.py).
        accounts_hooks.provide_profile(selectors.profile_part)
        accounts_hooks.provide_sign_in_refusal(signin.sign_in_refusal)


class StaffAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with our site as the default one (INSTALLED_APPS names this in
    its place): /admin/ then requires staff with a verified second factor."""

    default = False  # "moderation" itself is ModerationConfig
    default_site = "moderation.admin_site.StaffAdminSite"
