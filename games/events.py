"""What happens after a table change commits.

Services register :func:`table_changed` with ``transaction.on_commit``, so it runs only once the
change is durable and never for a rolled-back one. Issue 4 fills it in: push each connected seat
its own view over the channel layer, and schedule the Celery tasks for the table's deadlines.
It takes ids, not objects, so it can be handed to a task queue as is.
"""

from __future__ import annotations

import logging

logger = logging.getLogger("games.events")


def table_changed(table_id: int, version: int) -> None:
    """Table ``table_id`` committed ``version``."""
    logger.debug("table %s changed to version %s", table_id, version)
    # Imported here: games.live reads tables through the services, which import this module.
    from games.live import broadcast_table

    # First, so that the "committed_at" stamp is taken as close to the commit as possible.
    broadcast_table(table_id, version)
