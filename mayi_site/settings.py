"""Settings, all from the environment.

No variables at all gives the embedded default: SQLite in the project folder, DEBUG on and a
generated secret kept in ``.local_secret_key``. ``DATABASE_URL`` switches to PostgreSQL (psycopg 3
with its connection pool), ``REDIS_URL`` to Redis for the cache and channel layer, and
``DEBUG=0`` to production settings that pass ``manage.py check --deploy``.
"""

from __future__ import annotations

import base64
import os
import secrets
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django
from celery.schedules import crontab
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured

from mayi_site.dbpool import check_connection

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in {"0", "false", "no", "off"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG=0")
    # A local key that survives restarts (so sessions do too) but never enters git.
    path = BASE_DIR / ".local_secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        path.chmod(0o600)
        return key


SECRET_KEY = _secret_key()


def _vapid_private_key() -> str:
    key = os.environ.get("MAYI_VAPID_PRIVATE_KEY", "").strip()
    if key or not DEBUG:
        return key
    path = BASE_DIR / ".local_vapid_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        # A P-256 private key, base64url of its 32 bytes (what py_vapid's from_raw reads).
        private = ec.generate_private_key(ec.SECP256R1())
        raw = private.private_numbers().private_value.to_bytes(32, "big")
        key = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        path.write_text(key)
        path.chmod(0o600)
        return key


ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A form from a page gone out of date gets a page that says so (Django's is a bare 403).
CSRF_FAILURE_VIEW = "mayi_site.middleware.csrf_failure"

INSTALLED_APPS = [
    # daphne first: its runserver serves the ASGI application.
    "daphne",
    # django.contrib.admin, with the staff's second factor required (moderation/admin_site.py).
    "moderation.apps.StaffAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "ninja",
    "axes",
    # Staff sign in to the admin with a second factor: TOTP, and static recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "csp",
    "accounts",
    "games",
    "chat",
    "moderation",
    "rules",
    "stats",
    "social",
    "notify",
    "tournaments",
    # A player's own data: the download of it and the deletion of the account.
    "privacy",
    # Finished games weighed decision by decision after their end (issue 33).
    "analysis",
]

MIDDLEWARE = [
    # The request id (X-Request-ID), the log lines' context and the HTTP metrics: first, so it
    # sees every answer (mayi_site/logs.py).
    "mayi_site.logs.RequestContextMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Retryable database errors -> 503, 413/405/429 in the API's error shape, ids no row can
    # match -> 404 (mayi_site/middleware.py).
    "mayi_site.middleware.ResilienceMiddleware",
    # The Content-Security-Policy header on every answer (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): the session passed a second factor (the admin requires it).
    "django_otp.middleware.OTPMiddleware",
    # Every time shown in the signed-in viewer's time zone (mayi_site/timezones.py).
    "mayi_site.timezones.TimeZoneMiddleware",
    # Marks signed-in users online (games/presence.py), so reminders skip them.
    "games.presence.PresenceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # The long-lived browser cookie a sign-in chose (linked accounts: moderation/signin.py).
    "moderation.signin.BrowserCookieMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # axes must come last so it sees the outcome of every authentication attempt.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "mayi_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "mayi_site.timezones.context",
                "games.context_processors.waiting",
                "accounts.context_processors.header_next",
            ],
        },
    },
]

WSGI_APPLICATION = "mayi_site.wsgi.application"
ASGI_APPLICATION = "mayi_site.asgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
    if _db["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI every request runs in its own thread; a pool hands each a warm connection
        # instead of a new one per request (the pool requires CONN_MAX_AGE=0).
        _db["CONN_MAX_AGE"] = 0
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX", "40")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "20")),
            # Check each connection as it leaves the pool (one round trip) and replace a dead
            # one: after a database restart or a terminated backend, the next request gets a
            # live connection instead of an InterfaceError (issue 14); one dead connection
            # has the pool test all its idle ones at once (mayi_site/dbpool.py).
            "check": check_connection,
        }
        # Parameters travel apart from the SQL text, and psycopg prepares a statement once a
        # connection has run it this many times (Django's default, None, never does): every
        # move repeats the same few statements, and planning them was 3/4 of PostgreSQL's time
        # per move (pg_stat_statements under bench/api_moves.py). Set DB_PREPARE_THRESHOLD=none
        # behind a transaction-mode pooler such as PgBouncer < 1.21.
        _db["OPTIONS"]["server_side_binding"] = env_bool("DB_SERVER_SIDE_BINDING", True)
        _prepare = os.environ.get("DB_PREPARE_THRESHOLD", "2").strip().lower()
        _db["OPTIONS"]["prepare_threshold"] = None if _prepare in ("", "none") else int(_prepare)
    elif _db["ENGINE"] == "django.db.backends.sqlite3":
        # As the default file below: writers (the site, the embedded worker) queue.
        _db.setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
    DATABASES = {"default": _db}
else:
    # Where the tests' database file goes (below): memory-backed /dev/shm where there is one,
    # as a file's fsyncs cost the suite time.
    _TEST_DB_DIR = (
        Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else Path(tempfile.gettempdir())
    )
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "db.sqlite3"),
            # IMMEDIATE takes the write lock at BEGIN, so concurrent writers queue on the
            # timeout instead of failing with "database is locked" when upgrading a read lock.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            # The tests' database is a file too, not Django's shared in-memory one: there the
            # live server's request threads and the test share one connection, so two requests
            # at once (a page's poll beside its POST) could read each other's half-done work,
            # a flake production's file never shows. One per process, so runs side by side
            # (the CI passes, two checkouts) never share it.
            "TEST": {"NAME": str(_TEST_DB_DIR / f"mayi-test-{os.getpid()}.sqlite3")},
        }
    }

# Request threads per daphne process (mayi_site/handlers.py): a fixed pool on PostgreSQL, so one
# request's database waits overlap another's work (6 gave the most game actions per second on
# 2 cores, bench/api_moves.py; more only add GIL contention); 1 keeps Django's thread per
# request, fine for SQLite, whose writers queue on the file lock anyway.
MAYI_HTTP_THREADS = int(
    os.environ.get(
        "MAYI_HTTP_THREADS",
        "6" if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else "1",
    )
)
# 1: every answer carries a Server-Timing header (mayi_site/handlers.py): how long the request
# waited for a request thread and how long Django took, for bench/load.py to tell queueing from
# work. Off by default: exact server times help timing attacks on sign-in and sign-up.
MAYI_SERVER_TIMING = os.environ.get("MAYI_SERVER_TIMING", "") == "1"
# 1: serve HTTP with Django's stock ASGIHandler and leave daphne's Twisted requests as they
# are (mayi_site/asgi.py): the way back if an upgrade breaks what handlers.py relies on
# (tests/site/test_framework_guard.py fails when those framework methods change).
MAYI_STOCK_ASGI_HANDLER = os.environ.get("MAYI_STOCK_ASGI_HANDLER", "") == "1"

REDIS_URL = os.environ.get("REDIS_URL", "")


def redis_caches(url: str) -> dict:
    """The cache on Redis at ``url`` (also used by the tests that stop their own Redis)."""
    return {
        "default": {
            # Degrades to a miss when Redis is down (mayi_site/cache.py), with short timeouts.
            "BACKEND": "mayi_site.cache.FailSoftRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }


def redis_channel_layers(url: str) -> dict:
    """channels_redis' pub/sub layer, degrading when Redis is down (mayi_site/channel_layer.py).

    Redis's pub/sub channels ignore the database number, so the URL's number goes into the
    channels' names: sites (or test runs) on one Redis kept apart by database number are kept
    apart here too, as they are in the cache and the Celery broker.
    """
    database = urlsplit(url).path.strip("/") or "0"
    return {
        "default": {
            "BACKEND": "mayi_site.channel_layer.FailSoftRedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"mayi{database}"},
        }
    }


if REDIS_URL:
    CACHES = redis_caches(REDIS_URL)
    # Pub/sub: a table's change is one PUBLISH, which each daphne process receives once on one
    # subscription and hands to its own sockets. At-most-once delivery is enough: every frame
    # carries the version and clients re-sync by it (see games/broadcast.py).
    CHANNEL_LAYERS = redis_channel_layers(REDIS_URL)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            # One channel per process hears every table's changes (games/hub.py), so it may
            # hold more than the default 100 at once; and its groups are joined once for as
            # long as a socket is open (the default let them lapse after a day).
            "CONFIG": {"capacity": 10_000, "group_expiry": 365 * 86400},
        }
    }

# Celery (mayi_site/celery.py): Redis when REDIS_URL is set; otherwise the in-process memory
# broker that the embedded worker of ./scripts/start consumes (games/embedded.py).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("MAYI_CELERY_QUEUE", "mayi")
# Reminder emails have a queue of their own (and, in production, a worker of their own): a slow
# or failing mail server must never hold up a buy window or a turn clock.
MAYI_MAIL_QUEUE = os.environ.get("MAYI_CELERY_MAIL_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-mail")
# The analysis of finished games has a queue (and, in production, a worker) of its own too: its
# tasks are long and CPU-bound, and must never hold up a timer (docs/ANALYSIS.md).
MAYI_ANALYSIS_QUEUE = os.environ.get(
    "MAYI_CELERY_ANALYSIS_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-analysis"
)
# A task of the analysis app sent without naming a queue still goes to its own.
CELERY_TASK_ROUTES = {"analysis.tasks.*": {"queue": MAYI_ANALYSIS_QUEUE}}
# CPU seconds one game's analysis may use in all (its decisions get fewer rollouts as it runs
# short, and it stops when even a few no longer fit); rollouts per decision; the CPU seconds of
# one run of the task before it queues the next behind other work; and the automatic analysis
# of a game after its end, only while fewer than this many tasks wait in the analysis queue
# (0: only the games players ask for).
MAYI_ANALYSIS_BUDGET_SECONDS = float(os.environ.get("MAYI_ANALYSIS_BUDGET_SECONDS", "60"))
MAYI_ANALYSIS_SAMPLES = int(os.environ.get("MAYI_ANALYSIS_SAMPLES", "32"))
MAYI_ANALYSIS_SLICE_SECONDS = float(os.environ.get("MAYI_ANALYSIS_SLICE_SECONDS", "2"))
MAYI_ANALYSIS_AUTO_QUEUE = int(os.environ.get("MAYI_ANALYSIS_AUTO_QUEUE", "20"))
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
# A task is acknowledged when it finished, and given back if its worker dies mid-way, so a
# killed worker loses nothing; each worker process reserves one task at a time.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis redelivers a task not acknowledged within this many seconds. No task waits with an ETA
# longer than MAYI_TIMER_HORIZON (5 min), so nothing is redelivered while still waiting; a
# task lost with a killed worker comes back after this, and finds its deadline already fired.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 900, "socket_connect_timeout": 1.0}
# Queueing a task with the broker down must neither hold a request nor fail it: one quick
# retry, then the caller logs it and the sweep catches up (the deadline is in the table row).
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker outlives a Redis outage of any length: it reconnects (every 2, 4 ... 30 s) and
# carries on, instead of exiting after 100 attempts; kombu's Redis transport needed a fix for
# the worker to get that far (mayi_site/celery_broker.py).
if REDIS_URL:
    CELERY_BROKER_TRANSPORT = "mayi_site.celery_broker:Transport"
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task running when the connection is lost runs to its end (a timer's work is in the database,
# and acting twice is refused by the version); its acknowledgement is then best effort. Said
# explicitly: Celery 6 turns the default to cancelling such tasks.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TIMEZONE = "UTC"
# Exactly one beat runs this (see mayi_site/celery.py and the README).
MAYI_SWEEP_SECONDS = float(os.environ.get("MAYI_SWEEP_SECONDS", "2"))
# Due reminders are looked for this often (a "your turn" email is that much late at most).
MAYI_REMINDER_SWEEP_SECONDS = float(os.environ.get("MAYI_REMINDER_SWEEP_SECONDS", "10"))
# The tournaments' tick runs this often: a round starts at most that long after its last table
# ended (tournaments/tasks.py).
MAYI_TOURNAMENT_TICK_SECONDS = float(os.environ.get("MAYI_TOURNAMENT_TICK_SECONDS", "30"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": MAYI_SWEEP_SECONDS,
        # A sweep that waited longer than a few intervals is superseded by the next one.
        "options": {"expires": MAYI_SWEEP_SECONDS * 5, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    "sweep-reminders": {
        "task": "games.tasks.sweep_reminders",
        "schedule": MAYI_REMINDER_SWEEP_SECONDS,
        "options": {"expires": MAYI_REMINDER_SWEEP_SECONDS * 5, "queue": MAYI_MAIL_QUEUE},
    },
    # Tournaments: registrations that closed, rounds past their deadline or whose tables all
    # ended, the next rounds paired (tournaments/tasks.py; idempotent).
    "tournaments-tick": {
        "task": "tournaments.tasks.tick",
        "schedule": MAYI_TOURNAMENT_TICK_SECONDS,
        "options": {
            "expires": MAYI_TOURNAMENT_TICK_SECONDS * 5,
            "queue": CELERY_TASK_DEFAULT_QUEUE,
        },
    },
    # The daily digest emails whose local hour has come (notify/digest.py), on the hour.
    "send-digests": {
        "task": "notify.tasks.send_digests",
        "schedule": crontab(minute=0),
        "options": {"expires": 1800, "queue": MAYI_MAIL_QUEUE},
    },
    # Downloads of a player's data older than a day are dropped (privacy/tasks.py).
    "expire-exports": {
        "task": "privacy.tasks.expire_exports",
        "schedule": 3600.0,
        "options": {"expires": 1800, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    # Suspensions and chat mutes whose time is up end (moderation/tasks.py).
    "expire-restrictions": {
        "task": "moderation.tasks.expire_restrictions",
        "schedule": 60.0,
        "options": {"expires": 300, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    # Linked accounts' sign-in traces are forgotten 90 days after last seen; members expelled
    # by the clock in 3 games in 7 days are reported (moderation/tasks.py).
    "purge-sign-in-traces": {
        "task": "moderation.tasks.purge_sign_in_traces",
        "schedule": 3600.0,
        "options": {"expires": 3600, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    "report-timeouts": {
        "task": "moderation.tasks.report_timeouts",
        "schedule": 600.0,
        "options": {"expires": 600, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    # Finished games waiting for their analysis are queued while the analysis queue has room
    # (analysis/services.py), on that queue: behind a long queue it waits, and has nothing to do.
    "analysis-sweep": {
        "task": "analysis.tasks.sweep",
        "schedule": 60.0,
        "options": {"expires": 300, "queue": MAYI_ANALYSIS_QUEUE},
    },
}
# Deadlines closer than this get an ETA task at once; the sweep queues the others later.
MAYI_TIMER_HORIZON = int(os.environ.get("MAYI_TIMER_HORIZON", "300"))
# In daphne, a near deadline's task goes to the broker this many seconds before it is due, and
# not at all if the table moved on by then (games/services/deferred_timers.py); negative: at the
# commit, as a Celery task's or the sweep's are.
MAYI_TIMER_LEAD = float(os.environ.get("MAYI_TIMER_LEAD", "2"))
# Clocks: the shortest turn clock or buy-window timer a table may ask for (tests lower it).
MAYI_MIN_CLOCK_SECONDS = int(os.environ.get("MAYI_MIN_CLOCK_SECONDS", "30"))
# Vacation days each player may spend per calendar year to pause their clocks.
MAYI_VACATION_DAYS_PER_YEAR = int(os.environ.get("MAYI_VACATION_DAYS_PER_YEAR", "20"))
# The leaderboard lists players with at least this many rated games in its ruleset (stats).
MAYI_LEADERBOARD_MIN_GAMES = int(os.environ.get("MAYI_LEADERBOARD_MIN_GAMES", "5"))
# A player may have this many unfinished turn-based games at once (tables open or being played;
# "Play now" games against bots are not counted), one more for each game they finished.
MAYI_MAX_OPEN_GAMES = int(os.environ.get("MAYI_MAX_OPEN_GAMES", "20"))
# Reminders: "online" means a request or a websocket within this many seconds (games/presence.py).
MAYI_ONLINE_SECONDS = int(os.environ.get("MAYI_ONLINE_SECONDS", "300"))
# A table's sockets get their frames after a change without their sessions read again when this
# process read them that many seconds ago or less (accounts/sessions.py ``read_within``): a
# sign-out, a password change or a ban still stops the next frame, a session row deleted by
# another process without a word (a sign-out sends one) at most this late. 0: read every time.
MAYI_SESSION_RECHECK_SECONDS = float(os.environ.get("MAYI_SESSION_RECHECK_SECONDS", "10"))
# The "your turn" email waits this long, so a player who is about to look gets none.
MAYI_TURN_REMINDER_DELAY = int(os.environ.get("MAYI_TURN_REMINDER_DELAY", "60"))
# The half and 80% emails only for clocks at least this long (seconds).
MAYI_CLOCK_REMINDER_MIN = int(os.environ.get("MAYI_CLOCK_REMINDER_MIN", "600"))
# The address emails link to.
MAYI_SITE_URL = os.environ.get("MAYI_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Web push (notify/): the VAPID key pair that signs every push (RFC 8292). MAYI_VAPID_PRIVATE_KEY
# is the private key, base64url of its 32 bytes or a PEM; without it a development site makes
# one and keeps it in .local_vapid_key (as the secret key), and a production site sends no push.
MAYI_VAPID_PRIVATE_KEY = _vapid_private_key()
# The contact push services see in each push's signed claims (a mailto: or https: URL).
MAYI_VAPID_SUBJECT = os.environ.get("MAYI_VAPID_SUBJECT", "mailto:noreply@localhost")
# 1 accepts http://127.0.0.1:<port>/ push endpoints (the tests' own receiver); off by default,
# as every endpoint must be https on a public address (notify/guard.py).
MAYI_PUSH_ALLOW_LOOPBACK = env_bool("MAYI_PUSH_ALLOW_LOOPBACK", False)
# Seconds a push service keeps a push for a browser that is offline (a turn lasts hours).
MAYI_PUSH_TTL = int(os.environ.get("MAYI_PUSH_TTL", str(12 * 3600)))
# Nudges: the turn must have been held this long, and one nudger nudges a table this often.
MAYI_NUDGE_AFTER_SECONDS = int(os.environ.get("MAYI_NUDGE_AFTER_SECONDS", "3600"))
MAYI_NUDGE_EVERY_SECONDS = int(os.environ.get("MAYI_NUDGE_EVERY_SECONDS", str(24 * 3600)))

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Argon2id at OWASP's parameters first (accounts/hashers.py: about 15x cheaper per sign-up or
# login than PBKDF2 at Django's 1.5 million iterations, as strong by OWASP's rating;
# bench/auth_timing.py); PBKDF2 kept behind it so every password stored before verifies, and
# is stored again with Argon2 at its next login.
PASSWORD_HASHERS = [
    "accounts.hashers.OwaspArgon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# The name authenticator apps show beside a staff member's TOTP code.
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER", "May I?")

# Password guessing: five failures for one username from one address lock it for an hour.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# Development prints emails to the console; production sends them over SMTP (EMAIL_HOST...).
_email_backend = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_smtp = {
    "host": os.environ.get("EMAIL_HOST", "localhost"),
    "port": int(os.environ.get("EMAIL_PORT", "25")),
    "username": os.environ.get("EMAIL_HOST_USER", ""),
    "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
    "use_tls": env_bool("EMAIL_USE_TLS", False),
}
# The file backend (EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend) writes each
# email to a file in EMAIL_FILE_PATH: for a staging site, and the live reminder test.
_email_file_path = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "sent-emails"))
if django.VERSION >= (6, 1):
    _mail_options: dict[str, object] = {}
    if _email_backend.endswith("smtp.EmailBackend"):
        _mail_options = dict(_smtp)
    elif _email_backend.endswith("filebased.EmailBackend"):
        _mail_options = {"file_path": _email_file_path}
    MAILERS = {"default": {"BACKEND": _email_backend, "OPTIONS": _mail_options}}
else:
    EMAIL_BACKEND = _email_backend
    EMAIL_FILE_PATH = _email_file_path
    EMAIL_HOST, EMAIL_PORT = _smtp["host"], _smtp["port"]
    EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _smtp["username"], _smtp["password"]
    EMAIL_USE_TLS = _smtp["use_tls"]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "May I? <noreply@localhost>")

# Content Security Policy (django-csp): scripts and styles only from our own static files, so
# no inline <script> and no style="..." in templates (tests/site/test_security.py checks both);
# data for scripts goes in data-* attributes or json_script. 'self' covers the same origin's
# websockets in connect-src. Swagger UI (/api/docs) draws some images from data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Rate limits (mayi_site/ratelimits.py: sliding windows, never more than the count in any period
# of that length): "<count>/<seconds>" per user (or per address when signed out, or for the
# *_ip scopes); each overridable with MAYI_RATE_<SCOPE>=N/S (docs/SETTINGS.md).
MAYI_RATE_LIMITS_ENABLED = env_bool("MAYI_RATE_LIMITS_ENABLED", True)
MAYI_RATE_LIMITS = {
    scope: os.environ.get(f"MAYI_RATE_{scope.upper()}", default)
    for scope, default in {
        "signup_ip": "10/3600",  # accounts made from one address
        "login_ip": "30/900",  # sign-in attempts from one address, any usernames (spraying)
        "password_reset_ip": "10/3600",
        "table_create": "20/600",
        "action": "1200/60",  # game actions, HTTP and websocket (bots play through the API)
        "chat": "10/60",  # table chat messages
        "report": "10/3600",  # reports to the moderators
        "email_change": "10/3600",  # each asks for the password: no guessing it through here
        "data_export": "5/3600",  # downloads of my data asked for (each is built by a task)
        "analysis": "10/3600",  # analyses of finished games asked for (each is a long task)
    }.items()
}

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# In development whitenoise serves straight from the app folders, no collectstatic needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Games: bounds on what a table may ask for, and how many actions server-side bots may take
# inside one request before leaving the rest to the clock (a safety net, never reached by a
# game with a human seat).
MAYI_MAX_BOT_ACTIONS = int(os.environ.get("MAYI_MAX_BOT_ACTIONS", "2000"))
# The bench's own app (benchapp/): the trivial one-row write endpoint bench/api_moves.py
# measures as the floor of the stack, and its table. Installed, migrated and mounted only when
# this is on (bench/api_moves.py starts its server so); never part of a production site.
MAYI_BENCH_ENDPOINTS = env_bool("MAYI_BENCH_ENDPOINTS", DEBUG)
if MAYI_BENCH_ENDPOINTS:
    INSTALLED_APPS.append("benchapp")

# A proxy's health check (deploy/Caddyfile) talks plain HTTP to the process itself.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_REFERRER_POLICY = "same-origin"
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Logs (mayi_site/logs.py): one JSON object a line in production, a readable line under DEBUG
# (LOG_FORMAT=json|text overrides); each line once, through the root's one handler; expected
# refusals (403, 404, 405, 413, 429, another Host) one warning line without a traceback.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json")
_log_level = os.environ.get("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "mayi_site.logs.ContextFilter"}},
    "formatters": {
        "json": {"()": "mayi_site.logs.JsonLineFormatter"},
        "text": {
            "format": "%(asctime)s %(levelname)s %(name)s [req=%(request_id)s "
            "user=%(user_id)s table=%(table_id)s] %(message)s"
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "text",
            "filters": ["context"],
        }
    },
    "root": {"handlers": ["console"], "level": _log_level},
    "loggers": {
        # Django's defaults give "django" a console handler of its own under DEBUG, and it
        # propagates to the root's too: every line twice. One handler, the root's.
        "django": {"handlers": [], "level": _log_level, "propagate": True},
        "django.server": {"handlers": [], "level": _log_level, "propagate": True},
        "games": {"level": os.environ.get("GAMES_LOG_LEVEL", "INFO"), "propagate": True},
    },
}

# GET /readyz (mayi_site/health.py) checks that a Celery worker's heartbeat was seen in the last
# 2 minutes: on by default in production with Redis (separate worker processes).
MAYI_READY_CHECK_WORKER = env_bool("MAYI_READY_CHECK_WORKER", bool(REDIS_URL) and not DEBUG)

# GET /metrics (mayi_site/metrics.py): served to loopback, and to "Authorization: Bearer <this>"
# when set (a Prometheus on another host). Empty: loopback only.
MAYI_METRICS_TOKEN = os.environ.get("MAYI_METRICS_TOKEN", "")
