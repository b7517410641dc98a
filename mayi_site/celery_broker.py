"""kombu's Redis transport, made to survive Redis going away while a worker holds tasks.

With ``acks_late`` (settings.py) a worker always holds unacknowledged messages: the task it runs
and every timer task it keeps until its ETA. When the broker connection is lost, Celery 5.7's
consumer first ``collect()``\\ s the connection, which drops the transport's reference to the
kombu ``Connection`` (``transport.client = None``), and then ``close()``\\ s it; closing the
channel gives the unacknowledged messages back to Redis, which needs a connection pool, which
is built from ``transport.client``'s host and port. So the worker died with
``AttributeError: 'NoneType' object has no attribute 'hostname'`` (kombu/transport/redis.py
``_connparams``), which Celery reports as "Unrecoverable error" and exits with status 1
instead of reconnecting. An acknowledgement arriving on such a channel (a task that finished
after the loss) failed the same way.

Here the channel remembers the connection parameters it was opened with and uses them once the
client is gone: giving back (or acknowledging) then either works, when Redis is reachable
again, or raises a redis ``ConnectionError``, which kombu expects and ignores while closing; the
consumer then reconnects as configured (``broker_connection_retry``). Nothing else changes.

Selected by ``CELERY_BROKER_TRANSPORT`` in settings.py when the broker is Redis.
Test: tests/live/test_celery_redis_outage.py (a worker holding an ETA task survives Redis
stopped and started again, and runs the tasks queued after).
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    _saved_connparams: dict[bool, dict[str, Any]]

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        saved = self.__dict__.setdefault("_saved_connparams", {})
        if self.connection.client is None and asynchronous in saved:
            # The kombu Connection was collected after a connection loss: the last known ones.
            return dict(saved[asynchronous])
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)
        saved[asynchronous] = dict(params)
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel
