"""``manage.py moderator_add <username> --role chat|game|senior|admin``: make a user staff in
the group of that role (docs/MODERATION.md); ``--remove`` takes every role away."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from moderation import services
from moderation.permissions import GAME, GROUPS, ROLES


class Command(BaseCommand):
    help = (
        "Make a user a moderator of a role: chat, game, senior or admin (staff, in that "
        "role's group; a new role replaces the old). --remove takes the role away."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--role",
            choices=ROLES,
            default=GAME,
            help="(default game) chat: hide, mute up to 24 h; game: also tables and suspensions up to 7 days; "
            "senior: also bans, any length, appeals; admin: also roles",
        )
        parser.add_argument("--remove", action="store_true", help="take the role away")

    def handle(self, *args: Any, username: str, role: str, remove: bool, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        services.moderator_grant(user=user, role=role, remove=remove)
        if remove:
            self.stdout.write(f"{username} is no longer a moderator")
            return
        self.stdout.write(
            f"{username} is one of the {GROUPS[role]}. Next: sign in on the site, "
            f"set up two-factor sign-in at {reverse('otp_setup')}, then open "
            f"{reverse('admin:index')}."
        )
