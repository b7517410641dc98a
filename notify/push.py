"""Sending one push to one browser: encrypted to it (aes128gcm, RFC 8291), signed with the
site's VAPID key (RFC 8292), posted to its push service, never following a redirect.

Only the Celery tasks call this (never a request): a push service can take seconds to answer.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from . import guard, vapid

logger = logging.getLogger("notify.push")

TIMEOUT_SECONDS = 10


class _NoRedirects(requests.Session):
    """A push service answers 201; a redirect could lead past the SSRF guard, so it is an
    answer like any other failure, never followed. No proxy from the environment either."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False

    def post(self, url: Any, data: Any = None, json: Any = None, **kwargs: Any) -> Any:
        kwargs["allow_redirects"] = False
        return super().post(url, data=data, json=json, **kwargs)


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    gone: bool  # the push service says the subscription no longer exists (404, 410)
    status: int | None = None
    note: str = ""


def send(
    *, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any], ttl: int | None = None
) -> Outcome:
    """Push ``payload`` (JSON) to one subscription. Never raises for the push service's or
    the network's failures: the outcome says what happened."""
    try:
        guard.check_endpoint(endpoint)
    except guard.BadEndpoint as exc:
        return Outcome(False, False, None, f"refused: {exc}"[:40])
    try:
        response = webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload, separators=(",", ":")),
            vapid_private_key=vapid.vapid(),
            vapid_claims={"sub": settings.MAYI_VAPID_SUBJECT},
            ttl=settings.MAYI_PUSH_TTL if ttl is None else ttl,
            timeout=TIMEOUT_SECONDS,
            headers={"Urgency": "normal"},
            requests_session=_NoRedirects(),
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        return Outcome(False, status in (404, 410), status, f"push service: {status}")
    except (requests.RequestException, ValueError, TypeError) as exc:
        # A malformed key of the browser's, a host that went away, a timeout.
        logger.warning("push to %s failed: %s", endpoint[:60], exc)
        return Outcome(False, False, None, type(exc).__name__[:40])
    status = getattr(response, "status_code", None)
    return Outcome(True, False, status)
