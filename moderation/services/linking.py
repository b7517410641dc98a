"""Linked accounts: at each sign-in, a keyed hash (HMAC-SHA256 under a key derived from
SECRET_KEY) of the address and of the browser's long-lived cookie is kept, never the raw
values; two accounts sharing one are listed on each other's moderator page. Kept 90 days after
last seen (``sign_in_traces_purge``, on the beat)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from ..models import SignInTrace

KEEP = timedelta(days=90)


def trace_digest(kind: str, value: str) -> str:
    """The keyed hash of an address or a browser id: without SECRET_KEY nobody can tell which
    address it was, even by trying every IPv4 address."""
    return salted_hmac(f"moderation.linked.{kind}", value, algorithm="sha256").hexdigest()


def sign_in_record(
    *, user: User, address: str | None, browser: str | None, now: datetime | None = None
) -> None:
    """Note that ``user`` signed in from ``address`` with the browser cookie ``browser``."""
    now = now or timezone.now()
    for kind, value in ((SignInTrace.Kind.ADDRESS, address), (SignInTrace.Kind.BROWSER, browser)):
        if not value:
            continue
        digest = trace_digest(kind, value)
        updated = SignInTrace.objects.filter(user=user, kind=kind, digest=digest).update(
            last_seen=now
        )
        if updated:
            continue
        try:
            with transaction.atomic():
                SignInTrace.objects.create(user=user, kind=kind, digest=digest, last_seen=now)
        except IntegrityError:
            pass  # a second sign-in at the same instant wrote it


def sign_in_traces_purge(*, now: datetime | None = None) -> int:
    """Forget the traces not seen for 90 days; how many went."""
    cutoff = (now or timezone.now()) - KEEP
    deleted, _ = SignInTrace.objects.filter(last_seen__lt=cutoff).delete()
    return deleted
