"""Emails sent outside the request that asked for them.

The password-reset form sends an email only when the address belongs to an account; sending it
inside the request made the answer's time tell whether an account exists (an SMTP round trip is
hundreds of milliseconds). Here the message is built in the request, the same way whether or not
anyone gets it, and sent by a background thread after the request's transaction commits.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.template import loader

from mayi_site import metrics

logger = logging.getLogger("accounts.mail")

_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mail")
_pending: set[Future] = set()


def _send(message: EmailMessage, kind: str) -> None:
    try:
        message.send()
    except Exception:
        metrics.count_email(kind, ok=False)
        logger.exception("could not send an email to %s", message.to)
    else:
        metrics.count_email(kind, ok=True)


def send_later(message: EmailMessage, *, kind: str = "account") -> None:
    """Send ``message`` from a background thread once the current transaction commits
    (``kind`` labels it in the ``mayi_emails_total`` metric)."""

    def submit() -> None:
        future = _executor.submit(_send, message, kind)
        _pending.add(future)
        future.add_done_callback(_pending.discard)

    transaction.on_commit(submit)


def drain(timeout: float = 10) -> None:
    """Wait until every email handed over so far was sent (tests)."""
    wait(list(_pending), timeout=timeout)


class BackgroundPasswordResetForm(PasswordResetForm):
    """Django's form; its email goes out from :func:`send_later`, not inside the request."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict,
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        if html_email_template_name is not None:
            message.attach_alternative(
                loader.render_to_string(html_email_template_name, context), "text/html"
            )
        send_later(message, kind="password_reset")
