"""Helpers for tests with Redis gone: a Redis of the test's own to stop and start, and the
site's settings pointed at it (cache, channel layer, Celery broker). The machine's Redis on
6379 is never touched."""

from __future__ import annotations

import fcntl
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

PORT = 6407  # developer h14's port (6400 + N): nothing else listens there


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class OwnRedis:
    """``redis-server`` on PORT, without persistence; ``stop()`` and ``start()`` at will."""

    def __init__(self, port: int = PORT) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not port_open(self.port):
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@contextmanager
def site_on_redis(url: str) -> Iterator[None]:
    """Point the cache, the channel layer and the Celery broker at ``url`` for a while."""
    from channels.layers import channel_layers
    from django.test import override_settings

    from mayi_site import settings as site_settings
    from mayi_site.celery import app

    caches = site_settings.redis_caches(url)
    layers = site_settings.redis_channel_layers(url)
    saved: dict[str, Any] = {
        "broker_url": app.conf.broker_url,
        "pool": app._pool,
        "producers": app.amqp._producer_pool,
    }
    with override_settings(CACHES=caches, CHANNEL_LAYERS=layers):
        channel_layers.backends.clear()
        app.conf.broker_url = url
        app._pool = None
        app.amqp._producer_pool = None
        try:
            yield
        finally:
            if app._pool is not None:
                app._pool.force_close_all()
            app.conf.broker_url = saved["broker_url"]
            app._pool = saved["pool"]
            app.amqp._producer_pool = saved["producers"]
            channel_layers.backends.clear()
    channel_layers.backends.clear()


@contextmanager
def port_to_myself() -> Iterator[None]:
    """Hold PORT for this test alone: test runs side by side (pytest-xdist workers, other
    checkouts on this machine) take turns instead of stopping each other's Redis."""
    with open(f"/tmp/mayi-test-redis-{PORT}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture
def redis_down() -> Iterator[str]:
    """The site's Redis is a closed port for the test."""
    with port_to_myself():
        assert not port_open(PORT), f"something listens on {PORT}"
        url = f"redis://127.0.0.1:{PORT}/0"
        with site_on_redis(url):
            yield url


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    """A Redis of the test's own, the site pointed at it; the test may stop and start it."""
    with port_to_myself():
        server = OwnRedis()
        server.start()
        try:
            with site_on_redis(server.url):
                yield server
        finally:
            server.stop()
