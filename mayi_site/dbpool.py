"""The connection pool's check, which also clears out the pool's other dead connections.

A connection whose socket has nothing to read is trusted without a round trip (``quiet``):
a backend that ended said so on it before it closed.

psycopg_pool checks a connection as it leaves the pool (``check``). When the check fails, the
pool discards that connection, *sleeps* with exponential backoff (1 s, 2 s, 4 s...) and tries
the next one. After a database restart, a failover or ``pg_terminate_backend``, every idle
connection is dead at once: a request then slept 1 + 2 + 4 + ... seconds through them, and
with a dozen in the pool it ran out its pool timeout (20 s) and answered 503. One dead
connection says the others are likely dead too, so this check has the pool test every idle
one at once (``ConnectionPool.check``: dead ones are replaced by its workers) before it
reports the failure: the request pays one backoff step (about a second), once
(tests/site/test_pg_faults.py).
"""

from __future__ import annotations

import select
from typing import Any

from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool


def check_connection(conn: Any) -> None:
    if quiet(conn):
        return
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        # getconn sets the connection's pool before it calls the check (psycopg_pool 3.2).
        pool = getattr(conn, "_pool", None)
        if isinstance(pool, ConnectionPool):
            # ConnectionPool.check tests with the static check_connection, not this
            # function, so there is no recursion.
            pool.check()
        raise


def quiet(conn: Any) -> bool:
    """Whether an idle connection is exactly as it was left: nothing came from the server
    since (a zero-timeout poll of its socket), so no round trip is needed to trust it.

    A backend that ends (terminated, the server shutting down or restarting) first sends the
    client its FATAL error and closes the socket: the socket is then readable, and the full
    check runs and finds it dead. The round trip of every check was a quarter of the site's
    statements under bench/load.py (four a move), for connections used a moment before."""
    try:
        if conn.closed or conn.info.transaction_status != TransactionStatus.IDLE:
            return False
        poller = select.poll()
        poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except Exception:  # no socket to look at: let the full check say
        return False
