"""The site's VAPID key pair (RFC 8292), from ``MAYI_VAPID_PRIVATE_KEY`` (settings.py)."""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid02


class PushOff(RuntimeError):
    """No VAPID key is configured (a production site without MAYI_VAPID_PRIVATE_KEY)."""


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid02:
    if private_key.startswith("-----BEGIN"):
        return Vapid02.from_pem(private_key.encode())
    return Vapid02.from_string(private_key)


def vapid() -> Vapid02:
    key = settings.MAYI_VAPID_PRIVATE_KEY
    if not key:
        raise PushOff("web push is off: set MAYI_VAPID_PRIVATE_KEY")
    return _vapid(key)


def public_key() -> str:
    """The application server key a browser subscribes with: the uncompressed P-256 point,
    base64url without padding (what ``pushManager.subscribe`` takes)."""
    raw = vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
