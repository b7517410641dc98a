"""Finished games arranged by hand for the statistics tests.

``finished_game`` writes a finished table with its seats and the round records a test chose
(scores, buys, the turn a contract went down...), then runs the finish hook exactly as the move
that ends a game does: the results, ratings and aggregates are the site's own.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine.records import empty_record
from games.engine.scoring import places
from games.models import Seat, Table
from stats.models import RoundRecord
from stats.services import stats_game_finished

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.get_current_timezone())


def rounds(scores: list[int], **fields: Any) -> list[dict[str, Any]]:
    """Seven round records with these scores (penalty = score, went out when 0) and the same
    other ``fields`` every round (a field given as a list: one value per round)."""
    out = []
    for i, score in enumerate(scores):
        rec = empty_record()
        rec.update(score=score, penalty=max(score, 0), went_out=score == 0)
        for key, value in fields.items():
            rec[key] = value[i] if isinstance(value, list) else value
        out.append(rec)
    return out


def finished_game(
    players: list[Any],
    per_seat: list[list[dict[str, Any]]],
    *,
    ruleset: str = "bga",
    when: datetime | None = None,
    expelled: tuple[int, ...] = (),
    seed: str | None = None,
) -> Table:
    """A finished game: ``players`` per seat (a user, or None for a bot), ``per_seat`` their
    round records (see :func:`rounds`)."""
    n = len(players)
    totals = [sum(r["score"] for r in recs) for recs in per_seat]
    out = [sum(1 for r in recs if r["went_out"]) for recs in per_seat]
    seed = seed or secrets.token_hex(8)
    table = Table.objects.create(
        ruleset=ruleset,
        options={"seats": n},
        invite_code=secrets.token_hex(8),
        status=Table.Status.FINISHED,
        state={
            "game_over": True,
            "players": n,
            "ruleset": ruleset,
            "seed": seed,
            "totals": totals,
            "rounds_out": out,
            "places": places(totals, out, ruleset == "bga"),
        },
        host=next((p for p in players if p is not None), None),
    )
    seats = [
        Seat.objects.create(
            table=table,
            position=i,
            user=p,
            is_bot=p is None,
            expelled=i in expelled,
        )
        for i, p in enumerate(players)
    ]
    RoundRecord.objects.bulk_create(
        RoundRecord(
            table=table,
            round_no=r + 1,
            seat=i,
            user=players[i],
            ruleset=ruleset,
            by_bot=players[i] is None or i in expelled,
            end_seq=r + 1,
            **rec,
        )
        for i, recs in enumerate(per_seat)
        for r, rec in enumerate(recs)
    )
    # As the finishing move does: inside the transaction that holds the table (a live-server
    # test runs without the test's own wrapping transaction).
    with transaction.atomic():
        stats_game_finished(
            table=table, seats=seats, now=when or T0 + timedelta(days=Table.objects.count())
        )
    return table
