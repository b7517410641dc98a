"""A hypothesis state machine plays tables through the service layer, as the API does.

Each example opens a table (alice hosts, bob joins, bots fill the rest), starts it, then
interleaves: a legal action of a person to move (one of the engine's ``legal_actions``), junk
actions shaped as the API would pass them (cards of another hand, the stock, none at all;
moves out of turn; platform-only types), stale versions, a stranger's action, and the two
timers (turn clock, "May I?" window). After every step:

- a refused action changed nothing: the version, the state and the move rows are as before;
- the version grows by exactly one per accepted call (bots and standing orders answer inside
  the same commit), and the move rows carry it;
- every card is in exactly one place (hands, stock, pile, melds), and the engine's other
  invariants hold (``check_invariants``: melds valid, totals add up, no view leaks);
- the stored state is what the seed and the move rows replay to.

Bounded and derandomized, so it runs in seconds and the same way in every CI run;
MAYI_PROPERTY_SCALE=20 (say) multiplies the examples for a longer hunt.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as hs
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from pydantic import TypeAdapter, ValidationError

from games import engine, services
from games.api_schemas import ActionIn
from games.engine.invariants import check_invariants
from games.engine.records import initial_state, replay
from games.models import Move, Seat, Table

pytestmark = pytest.mark.django_db

SCALE = int(os.environ.get("MAYI_PROPERTY_SCALE", "1"))
ACTION_SHAPE: TypeAdapter[Any] = TypeAdapter(ActionIn)
TYPES = ["draw", "lay_down", "lay_off", "mayi_meld", "discard", "pass", "may_i", "no_thanks"]
TYPES += ["swap_wild", "close_window", "timeout", "teleport"]
REFUSED = (engine.IllegalMove, services.ServiceError)


class Clock:
    """The services' ``timezone.now``: moved on by the machine, so the clocks and deadlines
    only ever see time go forward, and a timer can be fired exactly at its deadline."""

    def __init__(self) -> None:
        self.at = timezone.now()

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


class ServiceMachine(RuleBasedStateMachine):
    users: dict[str, Any] = {}
    clock: Clock

    def __init__(self) -> None:
        super().__init__()
        self.table_id = 0
        self.people: dict[int, Any] = {}  # seat position -> user, the seats people play
        self.accepted = 0  # calls that applied, for a debugger's eye

    # -- helpers ---------------------------------------------------------------------------

    def table(self) -> Table:
        return Table.objects.get(pk=self.table_id)

    def moves(self) -> list[Move]:
        return list(Move.objects.filter(table_id=self.table_id).order_by("seq"))

    def snapshot(self) -> tuple[int, Any, int, Any, Any]:
        t = self.table()
        return (
            t.version,
            t.state,
            Move.objects.filter(table_id=t.pk).count(),
            t.status,
            t.turn_deadline,
        )

    def playing(self) -> bool:
        return self.table().status == Table.Status.PLAYING

    def submit(self, user: Any, action: dict[str, Any], version: int) -> bool:
        """Send ``action`` as the API would (its JSON shape first); True when it applied."""
        before = self.snapshot()
        try:
            parsed = ACTION_SHAPE.validate_python({**action, "expect_version": version})
        except ValidationError:
            return False  # the API answers 400 bad_request: the service never sees it
        shaped = parsed.model_dump(exclude={"expect_version"}, exclude_none=True)
        try:
            services.table_submit_action(
                table_id=self.table_id, user=user, action=shaped, expect_version=version
            )
        except REFUSED:
            assert self.snapshot() == before, f"a refused {shaped} changed the table"
            return False
        self.check_accepted(before[0], [shaped])
        return True

    def check_accepted(self, version: int, first: list[dict[str, Any]] | None) -> None:
        table = self.table()
        assert table.version == version + 1
        new = [m for m in self.moves() if m.version == table.version]
        assert new, "an accepted call wrote no move"
        assert all(m.version <= table.version for m in self.moves())
        if first is not None:
            assert new[0].action == first[0] and not new[0].by_bot
        self.accepted += 1

    # -- setup -----------------------------------------------------------------------------

    @initialize(
        ruleset=hs.sampled_from(["bga", "bga", "petras", "classic", "rook"]),
        seats=hs.integers(3, 4),
        seed=hs.text("abcdef0123456789", min_size=8, max_size=16),
        turn=hs.sampled_from([60, 3600]),
        window=hs.sampled_from([30, 600]),
    )
    def open_table(self, ruleset: str, seats: int, seed: str, turn: int, window: int) -> None:
        alice, bob = self.users["alice"], self.users["bob"]
        table = services.table_create(
            host=alice, ruleset=ruleset, seats=seats, turn_seconds=turn, window_seconds=window
        )
        self.table_id = table.pk
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        with pytest.raises(services.Conflict):
            services.table_fill_with_bots(user=alice, table_id=table.pk)  # already full
        services.table_start(user=alice, table_id=table.pk, seed=seed)
        self.people = {
            s.position: s.user
            for s in Seat.objects.filter(table=table, user__isnull=False).select_related("user")
            if not s.played_by_bot
        }
        assert sorted(u.username for u in self.people.values()) == ["alice", "bob"]

    # -- rules -----------------------------------------------------------------------------

    @precondition(lambda self: self.table_id and self.playing())
    @rule(
        picks=hs.lists(hs.integers(0, 10**6), min_size=1, max_size=12),
        think=hs.floats(0.5, 20),
    )
    def legal_actions(self, picks: list[int], think: float) -> None:
        """People play a few actions in a row: each one the engine offers a seat to move, the
        bot's choice for it one time in two (so games get on to contracts and round ends)."""
        for pick in picks:
            table = self.table()
            if table.status != Table.Status.PLAYING:
                return
            movers = [s for s in engine.seats_to_act(table.state) if s in self.people]
            if not movers:
                return  # the game waits on a timer
            seat = movers[pick % len(movers)]
            options = engine.legal_actions(table.state, seat)
            assert options, f"seat {seat} is to act and the engine offers nothing"
            if pick % 2:
                action = engine.choose_action(table.state, seat)
            else:
                action = options[(pick // 2) % len(options)]
            self.clock.advance(think)
            assert self.submit(self.people[seat], action, table.version), (
                f"the engine offered {action} to seat {seat} and the service refused it"
            )

    @precondition(lambda self: self.table_id)
    @rule(
        who=hs.sampled_from(["alice", "bob"]),
        kind=hs.sampled_from(TYPES),
        where=hs.sampled_from(["own", "other", "stock", "pile", "meld", "none", "bogus"]),
        n=hs.integers(1, 5),
        meld=hs.sampled_from(["m1", "m2", "m99", "", "x" * 16]),
        end=hs.sampled_from(["low", "high", None]),
    )
    def junk_action(
        self, who: str, kind: str, where: str, n: int, meld: str, end: str | None
    ) -> None:
        """An action the engine refuses must change nothing; one it happens to accept must
        be applied exactly as the engine says (the service and the engine agree)."""
        table = self.table()
        user = self.users[who]
        seat = next((p for p, u in self.people.items() if u.pk == user.pk), None)
        state = table.state
        cards = self.cards_from(state, seat, where, n)
        action: dict[str, Any] = {"type": kind}
        if kind == "draw":
            action["source"] = "stock" if n % 2 else "discard"
        elif kind in ("lay_down", "mayi_meld"):
            action["cards"] = cards if kind == "lay_down" else (cards * 4)[:4]
        elif kind in ("lay_off", "swap_wild", "discard"):
            action["card"] = cards[0] if cards else "zz"
            if kind != "discard":
                action["meld"] = meld
            if kind == "lay_off" and end:
                action["end"] = end
        engine_says = True
        if state is None or seat is None:
            engine_says = False
        else:
            try:
                engine.apply(state, seat, action)
            except engine.IllegalMove:
                engine_says = False
        applied = self.submit(user, action, table.version)
        if applied:
            assert engine_says and table.status == Table.Status.PLAYING, action

    @precondition(lambda self: self.table_id and self.playing())
    @rule(back=hs.integers(1, 3), pick=hs.integers(0, 10**6))
    def stale_version(self, back: int, pick: int) -> None:
        """A legal action at a version already passed is refused: a double click."""
        table = self.table()
        options = [(s, a) for s in self.people for a in engine.legal_actions(table.state, s)]
        if not options:
            return
        seat, action = options[pick % len(options)]
        for version in (table.version - back, table.version + back):
            assert not self.submit(self.people[seat], action, version)

    @precondition(lambda self: self.table_id)
    @rule()
    def stranger_acts(self) -> None:
        table = self.table()
        before = self.snapshot()
        with pytest.raises(services.NotSeated):
            services.table_submit_action(
                table_id=table.pk,
                user=self.users["charlie"],
                action={"type": "draw", "source": "stock"},
                expect_version=table.version,
            )
        assert self.snapshot() == before

    @precondition(lambda self: self.table_id and self.playing())
    @rule(early=hs.booleans())
    def turn_clock_runs_out(self, early: bool) -> None:
        """The turn timer fires: before its deadline it does nothing; at it, the bot plays
        the turn in one commit; fired again (a duplicate delivery) it does nothing."""
        table = self.table()
        if table.turn_deadline is None:
            return
        before = self.snapshot()
        if early:
            too_soon = table.turn_deadline - timedelta(seconds=1)
            assert not services.table_timeout_turn(table_id=table.pk, now=too_soon)
            assert self.snapshot() == before
            return
        self.clock.at = max(self.clock.at, table.turn_deadline)
        fired = services.table_timeout_turn(
            table_id=table.pk, expect_version=table.version, now=self.clock.at
        )
        if fired:
            self.check_accepted(before[0], None)
            again = self.snapshot()
            assert not services.table_timeout_turn(
                table_id=table.pk, expect_version=table.version, now=self.clock.at
            )
            assert self.snapshot() == again
        else:
            # A deadline the engine had nothing for is dropped, and nothing else changes.
            assert self.snapshot()[:3] == before[:3]

    @precondition(lambda self: self.table_id and self.playing())
    @rule()
    def window_timer_runs_out(self) -> None:
        table = self.table()
        if table.window_deadline is None:
            return
        before = self.snapshot()
        self.clock.at = max(self.clock.at, table.window_deadline)
        if services.table_close_buy_window(
            table_id=table.pk, expect_version=table.version, now=self.clock.at
        ):
            self.check_accepted(before[0], None)
        else:
            assert self.snapshot()[:3] == before[:3]

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def cards_conserved_and_state_replays(self) -> None:
        if not self.table_id:
            return
        table = self.table()
        moves = self.moves()
        assert table.move_count == len(moves)
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
        versions = [m.version for m in moves]
        assert versions == sorted(versions) and (not moves or versions[-1] == table.version)
        assert check_invariants(table.state) == []
        state = initial_state(table.state)
        for after, _ in replay(initial_state(table.state), [(m.seat, m.action) for m in moves]):
            state = after
        assert state == table.state, "the move rows do not replay to the stored state"

    def cards_from(self, state: Any, seat: int | None, where: str, n: int) -> list[str]:
        if state is None:
            return ["w7M"][:n]
        others = [h for p, h in enumerate(state["hands"]) if p != seat]
        pools = {
            "own": state["hands"][seat] if seat is not None else [],
            "other": [c for h in others for c in h],
            "stock": state["stock"],
            "pile": state["discard"],
            "meld": [c for m in state["melds"] for c in m["cards"]],
            "none": [],
            "bogus": ["zz9Q", "w99M", "p1X", "x0R"],
        }
        return list(pools[where][-n:])


def test_services_keep_a_table_whole_under_any_sequence_of_calls(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock.now)
    ServiceMachine.users = {"alice": alice, "bob": bob, "charlie": charlie}
    ServiceMachine.clock = clock
    run_state_machine_as_test(
        ServiceMachine,
        settings=settings(
            max_examples=6 * SCALE,
            stateful_step_count=40,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
