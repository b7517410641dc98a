"""A push service of our own on 127.0.0.1, for the web push tests: it takes what the site posts
to a subscription's endpoint, decrypts it with that subscription's private key (aes128gcm,
RFC 8291) and checks the VAPID header (RFC 8292), as a browser's push service and the browser
together would. Nothing leaves the machine.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Subscriber:
    """One browser's subscription: its keys, and the endpoint on the receiver."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    def to_json(self) -> dict[str, Any]:
        """What the browser's ``PushSubscription.toJSON()`` gives."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth_secret)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        return json.loads(plain)


def verify_vapid(headers: dict[str, str], audience: str) -> dict[str, Any]:
    """Check the ``Authorization: vapid t=<JWT>, k=<key>`` header: an ES256 JWT signed by the
    key it names, for this push service's origin, not expired. Returns the claims and key."""
    auth = headers.get("authorization", "")
    assert auth.startswith("vapid "), auth
    parts = dict(p.strip().split("=", 1) for p in auth[len("vapid ") :].split(","))
    token, key = parts["t"], parts["k"]
    head_b64, claims_b64, sig_b64 = token.split(".")
    head = json.loads(unb64url(head_b64))
    assert head == {"typ": "JWT", "alg": "ES256"}, head
    claims = json.loads(unb64url(claims_b64))
    signature = unb64url(sig_b64)
    assert len(signature) == 64
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    assert claims["aud"] == audience, claims
    assert claims["exp"] > time.time(), claims
    assert claims["sub"].startswith(("mailto:", "https:")), claims
    return {"claims": claims, "key": key}


@dataclass
class Receiver:
    """The server: ``answer`` is the status it answers (201, or 404/410 for a gone one)."""

    host: str = "127.0.0.1"
    answer: int = 201
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        assert self.server is not None
        return f"http://{self.host}:{self.server.server_address[1]}"

    def subscriber(self) -> Subscriber:
        return Subscriber(
            endpoint=f"{self.origin}/push/{b64url(os.urandom(12))}",
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth_secret=os.urandom(16),
        )

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(receiver.answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def for_endpoint(self, subscriber: Subscriber) -> list[Received]:
        path = subscriber.endpoint[len(self.origin) :]
        return [r for r in self.received if r.path == path]
