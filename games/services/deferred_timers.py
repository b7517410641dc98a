"""A server process's near timers, handed to the broker just before they fall due.

Most near deadlines never need their task: a "May I?" window that every seat answered, a turn
that was played, long before the timer. Queued at the commit, such a task was held by a worker
until its ETA and then found the table moved on (``timers.moved_on``); in bench/load.py's runs
that was 9 tasks in 10, most of the workers' CPU and a twentieth of daphne's (the publishing).
In a daphne process the commit hands the task to the event loop instead: the loop sends it
``MAYI_TIMER_LEAD`` seconds before the deadline, unless this process committed a newer version
of the table meanwhile. That task would have done nothing, since versions only grow and the
change that moved the table on queued its own deadlines.

Nothing is lost with the process: the deadline is in the table row and the sweep fires it
within ``MAYI_SWEEP_SECONDS``; at a clean exit the tasks still waiting are sent at once. Only the
loop's thread touches the waiting tasks: the request threads reach it by
``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger("games.timers")

Send = Callable[[], object]


@dataclass(eq=False)
class _Task:
    send: Send
    handle: asyncio.TimerHandle | None = None


@dataclass
class _Table:
    # The newest version this process committed: a task for an older one is dropped.
    latest: int = -1
    waiting: dict[int, list[_Task]] = field(default_factory=dict)


# {table id: its waiting tasks}, on the loop's thread only.
_tables: dict[int, _Table] = {}


def defer(
    loop: asyncio.AbstractEventLoop, table_id: int, version: int, send: Send, delay: float
) -> None:
    """From any thread: run ``send`` (which queues the timer's task) in ``delay`` seconds in the
    loop's thread pool, unless this process commits a newer version of the table first."""
    loop.call_soon_threadsafe(_wait, loop, table_id, version, _Task(send), max(0.0, delay))


def moved_on(loop: asyncio.AbstractEventLoop, table_id: int, version: int) -> None:
    """From any thread, once ``version`` of the table committed: drop its older tasks."""
    loop.call_soon_threadsafe(_drop_before, table_id, version)


def waiting() -> int:
    """How many tasks wait to be sent (read on the loop's thread)."""
    return sum(len(tasks) for table in _tables.values() for tasks in table.waiting.values())


def _wait(
    loop: asyncio.AbstractEventLoop, table_id: int, version: int, task: _Task, delay: float
) -> None:
    table = _tables.setdefault(table_id, _Table())
    if version < table.latest:
        # The table moved on before the task even reached the loop.
        _forget_if_idle(table_id, table)
        return
    task.handle = loop.call_later(delay, _fire, loop, table_id, version, task)
    table.waiting.setdefault(version, []).append(task)


def _fire(loop: asyncio.AbstractEventLoop, table_id: int, version: int, task: _Task) -> None:
    table = _tables.get(table_id)
    if table is not None:
        tasks = table.waiting.get(version, [])
        if task in tasks:
            tasks.remove(task)
        if not tasks:
            table.waiting.pop(version, None)
        _forget_if_idle(table_id, table)
    # The broker is a network call: never on the loop's own thread.
    loop.run_in_executor(None, task.send)


def _drop_before(table_id: int, version: int) -> None:
    # A table with nothing waiting is not remembered: a task of an older version that reaches
    # the loop after this (its commit's hooks raced this one's) is sent, and does nothing.
    table = _tables.get(table_id)
    if table is None:
        return
    table.latest = max(table.latest, version)
    for old in [v for v in table.waiting if v < version]:
        for task in table.waiting.pop(old):
            if task.handle is not None:
                task.handle.cancel()
    _forget_if_idle(table_id, table)


def _forget_if_idle(table_id: int, table: _Table) -> None:
    if not table.waiting:
        _tables.pop(table_id, None)


@atexit.register
def _send_waiting_at_exit() -> None:
    # A process stopped cleanly (a restart, a deploy) sends what still waits, rather than
    # leave those deadlines to the sweep's next pass.
    for table in list(_tables.values()):
        for tasks in list(table.waiting.values()):
            for task in tasks:
                if task.handle is not None:
                    task.handle.cancel()
                try:
                    task.send()
                except Exception:
                    logger.exception("could not queue a waiting timer at exit")
    _tables.clear()
