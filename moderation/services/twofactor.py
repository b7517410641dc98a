"""Staff's second factor: a TOTP device (an authenticator app) and static recovery codes."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from ..audit import audit_write
from ..models import AuditEntry
from .errors import ModerationRefused

RECOVERY_CODES = 10


def otp_enrolled(user: User) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def otp_device_pending(*, user: User) -> TOTPDevice:
    """The authenticator to set up: the user's unconfirmed TOTP device, made when missing.
    Refused once one is confirmed (a second one needs a verified session: not offered)."""
    if otp_enrolled(user):
        raise ModerationRefused("two-factor sign-in is already set up")
    with transaction.atomic():
        device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
        if device is None:
            device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)
    return device


def otp_device_confirm(*, user: User, token: str) -> tuple[TOTPDevice, list[str]]:
    """The user typed the app's current code: the device is on, and they get recovery codes
    (shown once). Raises ModerationRefused for a wrong code."""
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        if device is None or otp_enrolled(user):
            raise ModerationRefused("there is no authenticator waiting to be confirmed")
        if not device.verify_token(token.strip().replace(" ", "")):
            raise ModerationRefused("that code is not right: type the one the app shows now")
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = _new_codes(user)
        audit_write(actor=user, action=AuditEntry.Action.OTP_ENROL, target_user=user)
    return device, codes


def otp_recovery_codes_new(*, user: User) -> list[str]:
    """Replace the user's recovery codes (the caller checked a verified session)."""
    with transaction.atomic():
        codes = _new_codes(user)
        audit_write(actor=user, action=AuditEntry.Action.OTP_CODES, target_user=user)
    return codes


def _new_codes(user: User) -> list[str]:
    device, _ = StaticDevice.objects.get_or_create(
        user=user, name="recovery codes", defaults={"confirmed": True}
    )
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=c) for c in codes])
    return codes
