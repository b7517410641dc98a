"""Fixtures of the live tests: the Celery worker process (tests/live/celeryworker.py)."""

from tests.live.celeryworker import celery_queue, start_worker, worker

__all__ = ["celery_queue", "start_worker", "worker"]
