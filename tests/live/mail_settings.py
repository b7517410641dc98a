"""The site's settings, with every email written to files in ``$MAYI_TEST_MAIL_DIR``.

For the worker process of tests/live/test_reminders_live.py: ``settings.py`` reads
``EMAIL_BACKEND`` from the environment but gives the file backend no directory (Django 6.1's
``MAILERS`` needs ``OPTIONS["file_path"]``), so the test points the worker here instead.
"""

from __future__ import annotations

import os

from mayi_site.settings import *  # noqa: F403

_FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
_MAIL_DIR = os.environ["MAYI_TEST_MAIL_DIR"]

if "MAILERS" in globals():
    MAILERS = {"default": {"BACKEND": _FILE_BACKEND, "OPTIONS": {"file_path": _MAIL_DIR}}}
else:
    EMAIL_BACKEND = _FILE_BACKEND
    EMAIL_FILE_PATH = _MAIL_DIR
