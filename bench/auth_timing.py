"""Sign-up and login as the server answers them: where the time goes, per part.

    .venv/bin/python bench/auth_timing.py [--users 5000] [--runs 15]
        [--hashers settings|pbkdf2-first] [--database-url postgres://...]

It makes a fresh database (a temporary SQLite file by default; with ``--database-url`` that
PostgreSQL database is dropped and created anew), migrates it, adds ``--users`` players (so the
sign-up's look-alike name check reads a realistic table), and runs the real settings: the
password hashers of ``mayi_site/settings.py`` (``--hashers pbkdf2-first`` puts Django's PBKDF2
first again, the configuration before Argon2, for the "before" figures), django-axes on, the
database sessions, the locmem email backend (it counts any email a request would send), DEBUG
off. The tests' MD5 hasher is never used here.

Each of ``--runs`` sign-ups (``POST /accounts/signup/``, a new name each) and logins
(``POST /accounts/login/``) goes through Django's test client in process; the parts are timed
by wrapping them: the password hasher (encode, verify), the password validators, the look-alike
name check, django-axes (its backend and its login handlers), the session (``login()``), the
email. Prints one JSON object: per request kind the median, min and max of the whole request
and of each part, in milliseconds, the emails sent, and the hashers' own costs alone
(PBKDF2 at Django's iterations, Argon2id at OWASP's parameters and at Django's defaults).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "a long-enough pass phrase 42"


def fresh_database(url: str | None) -> str:
    if url is None:
        folder = Path(tempfile.mkdtemp(prefix="mayi-auth-bench-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        return f"sqlite:///{folder / 'bench.sqlite3'}"
    parts = urlparse(url)
    name = parts.path.lstrip("/")
    common = ["-h", parts.hostname or "127.0.0.1", "-U", parts.username or "postgres"]
    subprocess.run(["dropdb", "--if-exists", *common, name], check=True)
    subprocess.run(["createdb", *common, name], check=True)
    return url


def stats(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(values), 1),
        "min_ms": round(min(values), 1),
        "max_ms": round(max(values), 1),
    }


class Parts:
    """Time spent in each wrapped function during one request."""

    def __init__(self) -> None:
        self.now: dict[str, float] = defaultdict(float)
        # A part inside itself (PBKDF2's verify calls its encode) counts once.
        self.inside: dict[str, int] = defaultdict(int)

    def wrap(self, owner: Any, name: str, part: str) -> None:
        original: Callable[..., Any] = getattr(owner, name)
        parts = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            if parts.inside[part]:
                return original(*args, **kwargs)
            parts.inside[part] += 1
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                parts.inside[part] -= 1
                parts.now[part] += (time.perf_counter() - t0) * 1000

        setattr(owner, name, timed)

    def take(self) -> dict[str, float]:
        out, self.now = dict(self.now), defaultdict(float)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--hashers", choices=["settings", "pbkdf2-first"], default="settings")
    parser.add_argument("--database-url")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = fresh_database(args.database_url)
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-only",
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        REDIS_URL="",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # No rate limit between the runs: they all come from one address (the limiter is not what
    # is measured; it costs a cache read).
    settings.MAYI_RATE_LIMITS_ENABLED = False
    if args.hashers == "pbkdf2-first":
        settings.PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
            *[h for h in settings.PASSWORD_HASHERS if "PBKDF2PasswordHasher" not in h],
        ]
    import axes.backends
    import axes.handlers.proxy
    from django.contrib.auth import hashers, password_validation
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends import db as session_db
    from django.core import mail
    from django.core.management import call_command
    from django.test import Client

    import accounts.names
    import accounts.views

    call_command("migrate", verbosity=0)
    # Existing players, their password hash made once (the table is what the check reads).
    one_hash = hashers.make_password(PASSWORD)
    User.objects.bulk_create(
        [User(username=f"player{i:06d}", password=one_hash) for i in range(args.users)],
        batch_size=2000,
    )

    parts = Parts()
    for cls in {hashers.get_hasher(h.algorithm).__class__ for h in hashers.get_hashers()}:
        parts.wrap(cls, "encode", "hasher")
        parts.wrap(cls, "verify", "hasher")
    parts.wrap(password_validation, "validate_password", "password_validators")
    parts.wrap(accounts.names, "lookalike_of", "lookalike_name_check")
    parts.wrap(axes.backends.AxesStandaloneBackend, "authenticate", "axes")
    parts.wrap(axes.handlers.proxy.AxesProxyHandler, "user_logged_in", "axes")
    parts.wrap(axes.handlers.proxy.AxesProxyHandler, "is_allowed", "axes")
    parts.wrap(session_db.SessionStore, "save", "session")
    parts.wrap(session_db.SessionStore, "cycle_key", "session")
    parts.wrap(mail.get_connection().__class__, "send_messages", "email")

    results: dict[str, Any] = {
        "users": args.users,
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        "first_hasher": hashers.get_hasher().algorithm,
        "hasher_params": _params(hashers.get_hasher()),
    }
    for kind in ("signup", "login"):
        totals: list[float] = []
        per_part: dict[str, list[float]] = defaultdict(list)
        sent = len(mail.outbox)
        for run in range(args.runs + 2):  # the first two warm the caches
            client = Client()
            name = f"newcomer{run:03d}"
            if kind == "signup":
                data = {
                    "username": name,
                    "email": f"{name}@example.com",
                    "password1": PASSWORD,
                    "password2": PASSWORD,
                }
                path = "/accounts/signup/"
            else:
                data = {"username": f"player{run:06d}", "password": PASSWORD}
                path = "/accounts/login/"
            parts.take()
            t0 = time.perf_counter()
            response = client.post(path, data, secure=True)
            total = (time.perf_counter() - t0) * 1000
            assert response.status_code == 302, (kind, response.status_code)
            taken = parts.take()
            if run < 2:
                continue
            totals.append(total)
            for part in ("hasher", "password_validators", "lookalike_name_check", "axes"):
                per_part[part].append(taken.get(part, 0.0))
            per_part["session"].append(taken.get("session", 0.0))
            per_part["email"].append(taken.get("email", 0.0))
            named = sum(v for k, v in taken.items())
            per_part["rest"].append(max(0.0, total - named))
        results[kind] = {
            "request": stats(totals),
            "parts": {part: stats(values) for part, values in per_part.items()},
            "emails_sent": len(mail.outbox) - sent,
        }
    results["hashers_alone"] = _hashers_alone(args.runs)
    print(json.dumps(results))


def _params(hasher: Any) -> dict[str, Any]:
    keys = ("iterations", "time_cost", "memory_cost", "parallelism")
    return {k: getattr(hasher, k) for k in keys if hasattr(hasher, k)}


def _hashers_alone(runs: int) -> dict[str, Any]:
    """Each hasher's encode (sign-up) and verify (login) alone, at its parameters."""
    from django.contrib.auth.hashers import Argon2PasswordHasher, PBKDF2PasswordHasher

    from accounts.hashers import OwaspArgon2PasswordHasher

    out = {}
    for label, hasher in (
        ("pbkdf2_sha256", PBKDF2PasswordHasher()),
        ("argon2id_owasp", OwaspArgon2PasswordHasher()),
        ("argon2id_django_default", Argon2PasswordHasher()),
    ):
        encodes, verifies = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            encoded = hasher.encode(PASSWORD, hasher.salt())
            t1 = time.perf_counter()
            assert hasher.verify(PASSWORD, encoded)
            t2 = time.perf_counter()
            encodes.append((t1 - t0) * 1000)
            verifies.append((t2 - t1) * 1000)
        out[label] = {
            "params": _params(hasher),
            "encode": stats(encodes),
            "verify": stats(verifies),
        }
    return out


if __name__ == "__main__":
    main()
