"""Push endpoints are a way out of the server: the SSRF guard.

A browser hands us its push service's URL and we POST to it, from the server, whenever an event
comes. Anyone can send any URL, so before one is stored, and again before each push (a name can
resolve elsewhere later), the URL must be ``https`` and its host must resolve only to public
addresses: never a private, loopback, link-local, reserved, multicast or unspecified one (the
cloud's metadata service at 169.254.169.254, the database next door). Redirects are not
followed either (notify/push.py).

``MAYI_PUSH_ALLOW_LOOPBACK=1`` lets the tests' own receiver in: ``http://127.0.0.1:<port>/...``
and nothing else that is not public.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

MAX_LENGTH = 1000


class BadEndpoint(ValueError):
    """The endpoint is refused; the message says why (the API's ``bad_push_endpoint``)."""


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (the tests replace this: no network)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or not ip.is_global
    )


def _loopback_allowed(scheme: str, host: str) -> bool:
    return settings.MAYI_PUSH_ALLOW_LOOPBACK and scheme in ("http", "https") and host == "127.0.0.1"


def check_endpoint(url: str) -> str:
    """The endpoint, if a push may be sent to it; else raises BadEndpoint."""
    if not isinstance(url, str) or not url or len(url) > MAX_LENGTH:
        raise BadEndpoint("a push endpoint is an https URL of at most 1000 characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadEndpoint(f"not a URL: {exc}") from None
    host = (parts.hostname or "").lower()
    if not host:
        raise BadEndpoint("the push endpoint has no host")
    if parts.username is not None or parts.password is not None:
        raise BadEndpoint("a push endpoint carries no user name or password")
    if _loopback_allowed(parts.scheme, host):
        return url
    if parts.scheme != "https":
        raise BadEndpoint("a push endpoint must be an https URL")
    try:
        addresses = resolve(host, port or 443)
    except (OSError, UnicodeError) as exc:
        raise BadEndpoint(f"the push endpoint's host does not resolve: {exc}") from None
    if not addresses:
        raise BadEndpoint("the push endpoint's host does not resolve")
    for address in addresses:
        try:
            public = _public(address)
        except ValueError:
            public = False
        if not public:
            raise BadEndpoint(
                "the push endpoint's host is a private, loopback, link-local or reserved address"
            )
    return url
