"""daphne's command line on uvloop's event loop.

    .venv/bin/python -m mayi_site.serve -b 127.0.0.1 -p 8000 mayi_site.asgi:application

takes exactly daphne's arguments. daphne runs Twisted on an asyncio event loop that it makes
as ``daphne.server`` is imported, from the event loop policy of that moment; setting uvloop's
policy first makes that loop uvloop's (libuv, in C) instead of the standard library's selector
loop, under every socket read, write and timer of Twisted, Channels and channels_redis:
5 to 8% less of daphne's CPU for the same moves in bench/load.py's runs (docs/PERFORMANCE.md).

``MAYI_UVLOOP=0``, or uvloop not installed (it has no Windows build), runs daphne on the
standard loop, exactly as the ``daphne`` command would.
"""

from __future__ import annotations

import asyncio
import os
import sys
import warnings


def use_uvloop() -> bool:
    """Make uvloop's the policy of the loops made from now on; False when it is not used."""
    if os.environ.get("MAYI_UVLOOP", "1").strip().lower() in {"0", "false", "no", "off"}:
        return False
    try:
        import uvloop
    except ImportError:
        return False
    if "daphne.server" in sys.modules:
        # Its loop exists already: too late to choose (a caller's mistake, not a user's).
        raise RuntimeError("daphne.server was imported before the event loop was chosen")
    with warnings.catch_warnings():
        # Python 3.14 deprecates event loop policies; daphne makes its loop from one.
        warnings.simplefilter("ignore", DeprecationWarning)
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main() -> None:
    use_uvloop()
    # Only now: importing daphne's CLI imports daphne.server, which makes the loop.
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
