"""The websocket's part of the authorisation matrix (tests/site/test_authz_matrix.py): each role
at a public and a private table either gets its own view, or is closed with 4401 / 4403."""

from __future__ import annotations

import pytest

from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    close_db_pools,
    communicator,
    refused_code,
    run,
    session_for,
    strings_in,
)
from tests.site.test_authz_matrix import KINDS, ROLES, hands_not_mine, may_read
from tests.site.test_authz_matrix import world as world_fixture

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]

world = world_fixture


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("role", ROLES)
def test_websocket_matrix(role, kind, world):
    table = world["tables"][kind]
    key = None if role == "anonymous" else session_for(world["users"][role])
    foreign = hands_not_mine(world, role, table)

    async def scenario() -> None:
        comm = communicator(table.pk, key)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        if role != "anonymous" and may_read(role, kind):
            frame = await comm.receive_json_from(timeout=TIMEOUT)
            assert frame["type"] == "table"
            assert not strings_in(frame) & foreign
            await comm.disconnect()
        else:
            code = await refused_code(comm)
            assert code == (4401 if role == "anonymous" else 4403)

    run(scenario)
