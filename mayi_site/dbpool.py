"""The connection pool's check, which also clears out the pool's other dead connections.

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

from typing import Any

from psycopg_pool import ConnectionPool


def check_connection(conn: Any) -> None:
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
