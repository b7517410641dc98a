"""``manage.py moderator_add <username>``: make a user staff and a member of "Moderators"."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from moderation.permissions import GROUP


class Command(BaseCommand):
    help = 'Make a user a moderator: staff, in the "Moderators" group.'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="take the role away")

    def handle(self, *args: Any, username: str, remove: bool, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        group = Group.objects.get(name=GROUP)
        if remove:
            user.groups.remove(group)
            if not user.is_superuser:
                user.is_staff = False
                user.save(update_fields=["is_staff"])
            self.stdout.write(f"{username} is no longer a moderator")
            return
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        user.groups.add(group)
        self.stdout.write(
            f"{username} is a moderator. Next: sign in on the site and set up two-factor "
            f"sign-in at {reverse('otp_setup')}, then open {reverse('admin:index')}."
        )
