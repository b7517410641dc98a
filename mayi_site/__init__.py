"""The site package; the Celery app is loaded with it so that shared tasks bind to it."""

from .celery import app as celery_app

__all__ = ["celery_app"]
