from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save

from mayi_site.timezones import on_logged_in


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        # The viewer's time zone is cached at sign-in (mayi_site/timezones.py).
        user_logged_in.connect(on_logged_in, dispatch_uid="mayi_site.timezones.on_logged_in")
        # Each name's look-alike skeleton, stored for sign-up's check (accounts/names.py).
        from accounts import names

        post_save.connect(
            names.on_user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.names"
        )
        # A session row deleted or saved in this process (a sign-out, a new key, an admin,
        # clearsessions) is read again before its sockets' next frame (accounts/sessions.py).
        from accounts import sessions

        for signal in (post_delete, post_save):
            signal.connect(
                sessions.on_session_changed,
                sender="sessions.Session",  # the database backends' model, by name
                dispatch_uid="accounts.sessions",
            )
