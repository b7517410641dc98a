"""The table's row lock, and retrying a service when the database reports contention."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection

from games.models import Seat, Table

from .errors import Busy
from .selectors import read_table_with_seats
from .timing import measured

logger = logging.getLogger("games.services")

P = ParamSpec("P")
R = TypeVar("R")

LOCK_RETRIES = 3


def lock_table_with_seats(table_id: int) -> tuple[Table, list[Seat]]:
    """The table row locked until the end of the caller's transaction, then the table and its
    seats read in one statement (every move, timer and seat change starts here).

    Every change to a table (a move, a seat taken, a timer firing) goes through this lock, so two
    writers of one table run one after the other and each sees the other's result: the version
    check and the seat assignment need no other coordination. On SQLite, where FOR UPDATE does
    not exist, the IMMEDIATE transaction mode gives the same ordering for the whole database.
    """
    # Under load the wait for another writer's commit is a large part of a move's answer.
    with measured("lock"):
        return read_table_with_seats(table_id, lock=True)


def _is_contention(exc: OperationalError) -> bool:
    text = str(exc).lower()
    cause = getattr(exc, "__cause__", None)
    sqlstate = getattr(cause, "sqlstate", None)
    # 40001 serialization failure, 40P01 deadlock, 55P03 lock not available.
    return sqlstate in {"40001", "40P01", "55P03"} or "database is locked" in text


def retry_on_contention(func: Callable[P, R]) -> Callable[P, R]:
    """Run a service again when the database reports lock contention, then give up as Busy.

    Lock contention is a reason to wait and retry, never a server error. Inside an outer
    transaction there is nothing to retry (the outer one is already doomed), so it is reported
    as Busy at once.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(LOCK_RETRIES):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if not _is_contention(exc):
                    raise
                if connection.in_atomic_block or attempt == LOCK_RETRIES - 1:
                    logger.warning("giving up on contention in %s: %s", func.__name__, exc)
                    raise Busy("the table is busy, try again") from exc
                logger.info("retrying %s after contention: %s", func.__name__, exc)
        raise AssertionError("unreachable")

    return wrapper
