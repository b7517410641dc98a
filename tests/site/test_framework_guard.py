"""Framework internals the site leans on, guarded: when Django changes a method that
``mayi_site/handlers.py`` overrides, or Twisted the code behind the private attribute
``mayi_site/asgi.py`` sets, this fails and says what to re-read.

Each guarded method's source is hashed (``inspect.getsource``) and compared with the hash
recorded when our code was last checked against it. After re-reading and adapting our code,
record the new hashes (the failure message prints them). Until then, ``MAYI_STOCK_ASGI_HANDLER=1``
serves with Django's own handler and leaves Twisted alone.
"""

from __future__ import annotations

import hashlib
import inspect
from typing import Any

import django
import pytest
from autobahn.websocket.protocol import WebSocketProtocol
from daphne.http_protocol import WebRequest
from django.core.handlers.asgi import ASGIHandler
from twisted.web.http import HTTPFactory as TwistedHTTPFactory
from twisted.web.http import Request

from mayi_site.handlers import SyncChainASGIHandler

# What our code copies or replaces, and which of our code to re-read when it changes.
REREAD = {
    "django": "mayi_site/handlers.py (SyncChainASGIHandler: __init__, __call__, handle, "
    "_serve, get_response_async)",
    "twisted": "mayi_site/asgi.py (_lean_twisted_requests sets Request._parsePOSTFormSubmission; "
    "_no_twisted_access_line replaces HTTPFactory.log; _lazy_autobahn_pformat replaces "
    "autobahn.websocket.protocol's pformat, _lazy_autobahn_highlights its hltype and hlval)",
}

# Per Django release (the site runs on 6.1, and on 5.2 LTS under Python 3.11): the sources our
# handler was checked against. Twisted's and daphne's are the same for both.
TWISTED = {
    "daphne.http_protocol.WebRequest.__init__": "ec85d9f2a762a39f",
    "twisted.web.http.Request.__init__": "2d3f7dbd28d0ce02",
    "twisted.web.http.Request.requestReceived": "99ca6c5e24305de4",
    "twisted.web.http.HTTPFactory.log": "e9acff05b9a51cb7",
    "autobahn.websocket.protocol.WebSocketProtocol._connectionMade": "7ac58d8bb6c3c752",
    "autobahn.websocket.protocol.WebSocketProtocol.sendData": "5dcca425b048b07e",
}
RECORDED = {
    "6.1": {
        "django.core.handlers.asgi.ASGIHandler.__call__": "f756809e9c9308dc",
        "django.core.handlers.asgi.ASGIHandler.__init__": "41379d4f4b69f900",
        "django.core.handlers.asgi.ASGIHandler.handle": "c91f27c7fcdc3fff",
        "django.core.handlers.base.BaseHandler.get_response_async": "ad82c920df0cebbb",
        **TWISTED,
    },
    "5.2": {
        "django.core.handlers.asgi.ASGIHandler.__call__": "f756809e9c9308dc",
        "django.core.handlers.asgi.ASGIHandler.__init__": "41379d4f4b69f900",
        "django.core.handlers.asgi.ASGIHandler.handle": "98faeb5bef800331",
        "django.core.handlers.base.BaseHandler.get_response_async": "ad82c920df0cebbb",
        **TWISTED,
    },
}


def overridden() -> list[Any]:
    """The Django methods SyncChainASGIHandler replaces (found, not listed by hand)."""
    found = []
    for name, value in vars(SyncChainASGIHandler).items():
        if not callable(value):
            continue
        base = next((c for c in ASGIHandler.__mro__ if name in vars(c)), None)
        if base is not None:
            found.append(vars(base)[name])
    return found


def current() -> dict[str, str]:
    guarded = [
        *overridden(),
        WebRequest.__init__,
        Request.__init__,
        Request.requestReceived,
        TwistedHTTPFactory.log,
        WebSocketProtocol._connectionMade,
        WebSocketProtocol.sendData,
    ]
    out = {}
    for func in guarded:
        func = inspect.unwrap(func)
        if getattr(func, "lean", False):  # asgi.py's wrapper of WebRequest.__init__
            func = inspect.getclosurevars(func).nonlocals["init"]
        name = f"{func.__module__}.{func.__qualname__}"
        out[name] = hashlib.sha256(inspect.getsource(func).encode()).hexdigest()[:16]
    return dict(sorted(out.items()))


def test_the_framework_methods_we_override_are_the_ones_we_read():
    now = current()
    recorded = RECORDED.get(".".join(django.__version__.split(".")[:2]), {})
    changed = sorted(
        name for name in now.keys() | recorded.keys() if now.get(name) != recorded.get(name)
    )
    if not changed:
        return
    reread = sorted(
        {
            REREAD["twisted" if n.startswith(("twisted", "daphne", "autobahn")) else "django"]
            for n in changed
        }
    )
    pytest.fail(
        "framework code our handler depends on changed: "
        + ", ".join(changed)
        + ".\nRe-read it against "
        + " and ".join(reread)
        + ", adapt our code (or serve with MAYI_STOCK_ASGI_HANDLER=1 meanwhile), then record for "
        + f"Django {django.__version__}:\n"
        + "\n".join(f'    "{k}": "{v}",' for k, v in now.items())
    )


def test_the_stock_handler_setting_serves_with_djangos_own_handler(settings):
    from mayi_site.asgi import http_application

    settings.MAYI_STOCK_ASGI_HANDLER = True
    assert type(http_application()) is ASGIHandler
    settings.MAYI_STOCK_ASGI_HANDLER = False
    assert type(http_application()) is SyncChainASGIHandler


def test_a_changed_method_fails_with_what_to_reread(monkeypatch):
    version = ".".join(django.__version__.split(".")[:2])
    stale = dict(RECORDED[version], **{"django.core.handlers.asgi.ASGIHandler.handle": "0" * 16})
    monkeypatch.setitem(RECORDED, version, stale)
    with pytest.raises(pytest.fail.Exception) as failed:
        test_the_framework_methods_we_override_are_the_ones_we_read()
    assert "ASGIHandler.handle" in str(failed.value)
    assert "mayi_site/handlers.py" in str(failed.value)


def test_no_twisted_access_line_and_autobahn_s_pformat_formatted_only_when_written():
    import pprint

    from autobahn.websocket import protocol
    from daphne.http_protocol import HTTPFactory

    import mayi_site.asgi  # noqa: F401  (served lean at import)

    assert HTTPFactory.log(object(), object()) is None  # type: ignore[arg-type]
    config = [("autoPingTimeout", 30, "WebSocketServerFactory"), ("perMessage", None, "x")]
    lazy = protocol.pformat(config)
    # txaio formats a line with str.format, when it writes it
    assert "\n{attrs}".format(attrs=lazy) == "\n" + pprint.pformat(config)  # noqa: UP032
    timings = protocol.Timings()
    timings.track("start")
    assert str(timings) == pprint.pformat(timings._timings)


def test_autobahn_s_highlights_are_formatted_only_when_written():
    from autobahn import util
    from autobahn.websocket import protocol

    import mayi_site.asgi  # noqa: F401  (served lean at import)

    def func() -> None: ...

    # Each frame sent passes these to a debug line: the lazy ones read as the real ones.
    for name, value in (("hltype", func), ("hlval", 1234)):
        lazy = getattr(protocol, name)(value)
        assert not isinstance(lazy, str)
        assert "{x} {x:>3}".format(x=lazy) == "{x} {x:>3}".format(x=getattr(util, name)(value))  # noqa: UP032
