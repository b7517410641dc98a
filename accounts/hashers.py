"""The password hasher: Argon2id at OWASP's parameters (Password Storage Cheat Sheet: m=19 MiB,
t=2, p=1), Django's first recommendation, in front of PBKDF2.

Django's own Argon2 defaults (100 MiB, 8 lanes) cost a sign-up or a login some 100 ms of a core
and 100 MiB of memory each; PBKDF2-SHA256 at Django 6.1's 1.5 million iterations costs about a
second on this site's machine (bench/auth_timing.py). OWASP rates Argon2id at 19 MiB, t=2 as
strong as PBKDF2-SHA256 at 600,000 iterations: these parameters are OWASP's minimum, never less.
A password stored with PBKDF2 still verifies (the next hasher in PASSWORD_HASHERS) and is
stored again with Argon2 at that login, as Django does for every hasher behind the first.
"""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class OwaspArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id (algorithm "argon2", so every Argon2 hash Django ever wrote verifies) at
    m=19456 KiB, t=2, p=1. A stored hash with other parameters is rehashed at its next login
    (``must_update``)."""

    time_cost = 2
    memory_cost = 19456
    parallelism = 1
