"""Typed requests, one per kind of caller, so that the edges read the user without a cast (as
healthchecks' ``hc/api/decorators.py`` ``ApiRequest``)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class ApiRequest(HttpRequest):
    """A request the JSON API authenticated (a bearer token or the browser's session, checked
    by the API's ``auth=``): ``auth`` is the signed-in user. Endpoints annotate ``request``
    with it; django-ninja passes the request it authenticated."""

    auth: User


class SignedInRequest(HttpRequest):
    """A request to a page behind ``login_required``: ``user`` is signed in."""

    user: User
