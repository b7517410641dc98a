"""A real Celery worker process (with its embedded beat) for the timer tests.

``celery -A mayi_site worker --beat`` runs as a subprocess pointed at the test database (the
tests use ``django_db(transaction=True)`` so the worker sees committed rows) and at Redis, on a
queue of its own so no other worker or stale task interferes. These tests need PostgreSQL (the
worker must open the same test database) and Redis: they skip without them, except in CI.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Short on purpose: the worker tests must stay quick. Production sweeps every 2 s.
SWEEP_SECONDS = 0.5
READY_TIMEOUT = 30


def in_ci() -> bool:
    return os.environ.get("CI", "") in ("1", "true")


def require_services() -> None:
    """Skip without REDIS_URL (the first, embedded pass of scripts/test); with it, PostgreSQL
    is needed too, and in CI a missing one is a failure, not a skip."""
    from django.db import connection

    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL and PostgreSQL (the second pass of scripts/test)")
    if connection.vendor != "postgresql":
        reason = "needs PostgreSQL: the worker process must open the test database"
        if in_ci():
            pytest.fail(f"CI must run the Celery worker tests: {reason}")
        pytest.skip(reason)


def worker_database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] or "postgres"
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class WorkerProcess:
    """One ``celery worker --beat`` subprocess in its own process group."""

    def __init__(self, queue: str, workdir: Path, redis_url: str | None = None) -> None:
        self.queue = queue
        self.workdir = workdir
        # The broker: REDIS_URL's by default, or a Redis of the test's own (tests/redis_down.py).
        self.redis_url = redis_url
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"worker-{uuid.uuid4().hex[:6]}.log"

    def start(self) -> WorkerProcess:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=worker_database_url(),
            MAYI_CELERY_QUEUE=self.queue,
            MAYI_SWEEP_SECONDS=str(SWEEP_SECONDS),
            MAYI_REMINDER_SWEEP_SECONDS=str(SWEEP_SECONDS),
            DB_POOL_MIN="1",
            DB_POOL_MAX="4",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        if self.redis_url is not None:
            env["REDIS_URL"] = self.redis_url
        env.pop("MAYI_EMBEDDED_WORKER", None)
        cmd = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "mayi_site",
            "worker",
            "--beat",
            "--schedule",
            str(self.workdir / f"beat-{uuid.uuid4().hex[:6]}"),
            "--queues",
            f"{self.queue},{self.queue}-mail,{self.queue}-analysis",
            "--pool",
            "threads",
            "--concurrency",
            "2",
            "--hostname",
            f"test-{uuid.uuid4().hex[:6]}@%h",
            "--without-mingle",
            "--without-gossip",
            "--loglevel",
            "INFO",
        ]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace")
            if " ready." in text:
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the Celery worker did not start:\n{self.log.read_text()[-4000:]}")

    def kill(self) -> None:
        """SIGKILL the whole group (worker and its beat): nothing gets to clean up."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def celery_queue(settings: Any) -> Iterator[str]:
    """A queue of our own; the test process queues its timers there too."""
    require_services()
    queue = f"mayi-test-{uuid.uuid4().hex[:8]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    settings.MAYI_MAIL_QUEUE = f"{queue}-mail"  # as the worker derives it from its queue
    settings.MAYI_ANALYSIS_QUEUE = f"{queue}-analysis"
    # Timers of 1-3 s keep these tests quick; production refuses under 30 s.
    settings.MAYI_MIN_CLOCK_SECONDS = 1
    yield queue
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete(queue, f"{queue}-mail", f"{queue}-analysis")


@pytest.fixture
def start_worker(celery_queue: str) -> Iterator[Callable[[], WorkerProcess]]:
    """``start_worker()`` starts one more worker process; all are stopped at the end."""
    workers: list[WorkerProcess] = []
    workdir = Path(tempfile.mkdtemp(prefix="mayi-celery-"))

    def start() -> WorkerProcess:
        worker = WorkerProcess(celery_queue, workdir).start()
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.fixture
def worker(start_worker: Callable[[], WorkerProcess]) -> WorkerProcess:
    return start_worker()


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
