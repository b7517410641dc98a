"""``manage.py moderator_add <username>``: make a user staff and a member of "Moderators"."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from moderation import services


class Command(BaseCommand):
    help = 'Make a user a moderator: staff, in the "Moderators" group (--remove: undo).'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="take the role away")

    def handle(self, *args: Any, username: str, remove: bool, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        services.moderator_grant(user=user, remove=remove)
        if remove:
            self.stdout.write(f"{username} is no longer a moderator")
            return
        self.stdout.write(
            f"{username} is a moderator. Next: sign in on the site, set up two-factor sign-in "
            f"at {reverse('otp_setup')}, then open {reverse('admin:index')}."
        )
