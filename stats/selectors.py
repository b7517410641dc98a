"""Reading statistics for the pages and the API, in a fixed number of queries.

A player's page costs the same statements with 1 game or 1,000 (the query-count test): the
user with their profile, their aggregates (one row per ruleset), ratings, their results (for
the rating chart and the streaks: a few columns per game), the players of the recent games, the
names of the opponents met and the games in play. Nothing here reads the move log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from accounts.models import Profile
from games.models import Seat, Table
from games.names import bot_name

from . import aggregates
from .models import GameResult, PlayerStats, Rating, RoundRecord
from .ratings import conservative, display, provisional

# Public for the other apps (stats/reliability.py): reliability(user) -> Figure,
# reliability_many(ids) -> {id: Figure}.
from .reliability import Figure, reliability, reliability_many  # noqa: F401
from .signals import hidden_stats_read

HISTORY_LIMIT = 20
# The rating table's rows (the most recent rated games) on the page.
RATING_TABLE_ROWS = 30
ALL = "all"


class PlayerNotFound(Exception):
    pass


class PlayerHidden(Exception):
    """The player hides their statistics from everyone but themselves."""


def leaderboard_min_games() -> int:
    return int(getattr(settings, "MAYI_LEADERBOARD_MIN_GAMES", 5))


def rating_out(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {
        "rating": display(mu),
        "conservative": conservative(mu, sigma),
        "provisional": provisional(sigma),
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "games": games,
    }


@dataclass
class HistoryGame:
    table_id: int
    ruleset: str
    finished: Any
    players: int
    place: int
    total: int
    rated: bool
    rating_before: int | None
    rating_after: int | None
    # The clock expelled them and a bot finished the seat: counted last (``place``).
    expelled: bool = False
    others: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rating_change(self) -> int | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


# Moderators whose role holds it read a hidden page (each read audited by moderation).
HIDDEN_STATS_PERMISSION = "moderation.view_hidden_stats_member"


def _hidden_and_not_theirs(profile: Profile | None, owner: User, viewer: Any) -> bool:
    """The owner hides their statistics, and someone else reads."""
    return bool(profile and profile.stats_hidden) and getattr(viewer, "pk", None) != owner.pk


def hidden_for(profile: Profile | None, owner: User, viewer: Any) -> bool:
    return _hidden_and_not_theirs(profile, owner, viewer) and not _moderator_reads(viewer)


def _moderator_reads(viewer: Any) -> bool:
    return bool(
        getattr(viewer, "is_staff", False)
        and viewer.is_active
        and viewer.has_perm(HIDDEN_STATS_PERMISSION)
    )


def rating_changes(table_id: int) -> list[dict[str, Any]]:
    """Each person's rating before and after a finished game, as shown (the final scores):
    ``[{"position", "user", "rated", "before", "after", "change"}]``, seat order; empty before
    the finish hook wrote the results."""
    out = []
    for seat, name, rated, mu_before, mu_after in (
        GameResult.objects.filter(table_id=table_id, user__isnull=False)
        .order_by("seat")
        .values_list("seat", "user__username", "rated", "mu_before", "mu_after")
    ):
        before = display(mu_before) if rated and mu_before is not None else None
        after = display(mu_after) if rated and mu_after is not None else None
        out.append(
            {
                "position": seat,
                "user": name,
                "rated": bool(rated),
                "before": before,
                "after": after,
                "change": after - before if before is not None and after is not None else None,
            }
        )
    return out


def aborted_games(user: User, limit: int = 20) -> list[dict[str, Any]]:
    """The games a moderator aborted that ``user`` sat at, newest first, with the reason (no
    result, no rating: the statistics count nothing of them, the page lists them apart)."""
    rows = (
        Table.objects.filter(status=Table.Status.ABORTED, seats__user=user)
        .order_by("-updated")
        .values("pk", "ruleset", "options", "updated")[:limit]
    )
    out = []
    for row in rows:
        aborted = (row["options"] or {}).get("aborted")
        if not aborted:
            continue  # a table its host left alone before it started: no game
        out.append(
            {
                "table": row["pk"],
                "ruleset": row["ruleset"],
                "reason": aborted.get("reason", ""),
                "at": row["updated"],
            }
        )
    return out


def visible_player(*, username: str, viewer: User | AnonymousUser) -> User:
    """The player whose statistics ``viewer`` may read (the page, its JSON, the analysis of
    their decisions), with their profile. Raises PlayerNotFound, or PlayerHidden when they
    hide their statistics from ``viewer``; a moderator's read of a hidden page is announced
    (``hidden_stats_read``: moderation audits it)."""
    user_model = get_user_model()
    try:
        user = user_model.objects.select_related("profile").get(username=username)
    except user_model.DoesNotExist:
        raise PlayerNotFound(f"there is no player {username}") from None
    profile = getattr(user, "profile", None)
    if hidden_for(profile, user, viewer):
        raise PlayerHidden(f"{username} keeps their statistics private")
    if _hidden_and_not_theirs(profile, user, viewer):
        hidden_stats_read.send(sender=player_stats, viewer=viewer, owner=user)
    return user


def player_stats(
    *, username: str, viewer: User | AnonymousUser, ruleset: str = ALL, history_page: int = 1
) -> dict[str, Any]:
    """Everything the statistics page and ``GET /api/players/<username>/stats`` show; the
    finished games ``HISTORY_LIMIT`` to a page, newest first (``history_page`` 1).

    Raises PlayerNotFound, or PlayerHidden when the player hides their page from ``viewer``.
    """
    user = visible_player(username=username, viewer=viewer)
    profile = getattr(user, "profile", None)
    moderator_view = _hidden_and_not_theirs(profile, user, viewer)

    rows = {r.ruleset: r.data for r in PlayerStats.objects.filter(user=user)}
    ratings = {r.ruleset: r for r in Rating.objects.filter(user=user)}
    # Each game at the place the statistics count (last when the clock expelled them), with
    # whether it was so, last.
    results = [
        (*r[:3], aggregates.counted_place(r[3], r[2], r[10]), *r[4:])
        for r in GameResult.objects.filter(user=user)
        .order_by("finished", "table_id")
        .values_list(
            "table_id",
            "ruleset",
            "players",
            "place",
            "total",
            "rated",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "expelled",
        )
    ]
    rulesets = sorted(rows)
    scope = ruleset if ruleset in rows else ALL
    data = rows[scope] if scope != ALL else aggregates.merge(rows.values())
    figures = aggregates.summary(data)
    scoped = [r for r in results if scope == ALL or r[1] == scope]
    figures["streak"]["current"] = _current_streak(scoped)
    if scope == ALL:
        figures["streak"]["best"] = max(figures["streak"]["best"], _best_streak(scoped))

    # Every finished game is on some page of the history: a player's 21st game back was on
    # none, and the home page's "My games" lists only their last few.
    history_pages = max(1, -(-len(scoped) // HISTORY_LIMIT))
    history_page = min(max(1, history_page), history_pages)
    history_end = len(scoped) - (history_page - 1) * HISTORY_LIMIT
    history_start = max(0, history_end - HISTORY_LIMIT)
    recent = [
        HistoryGame(
            table_id=r[0],
            ruleset=r[1],
            finished=None,  # from the next query (dates of every game cost a conversion each)
            players=r[2],
            place=r[3],
            total=r[4],
            rated=r[5],
            rating_before=display(r[6]) if r[6] is not None else None,
            rating_after=display(r[8]) if r[8] is not None else None,
            expelled=r[10],
        )
        for r in reversed(scoped[history_start:history_end])
    ]
    by_table = {g.table_id: g for g in recent}
    # Every table the page links to a replay of: the recent games, the rating table's, the
    # best and the worst. Their seats are read with the recent games' (one query).
    rated_tables = [r[0] for r in scoped if r[5] and r[8] is not None][-RATING_TABLE_ROWS:]
    marked = [figures[k]["table"] for k in ("best", "worst") if figures[k] is not None]
    linked = set(by_table) | set(rated_tables) | set(marked)
    private: set[int] = set()
    sat: dict[int, set[int]] = {}
    # The names whose statistics page refuses this viewer (they hide it): named, not linked.
    closed_pages: set[str] = set()
    viewer_id = getattr(viewer, "pk", None)
    if linked:
        for other in (
            GameResult.objects.filter(table_id__in=list(linked))
            .select_related("user")
            .annotate(table_public=F("table__public"), hides_stats=F("user__profile__stats_hidden"))
            .order_by("table_id", "seat")
        ):
            if not other.table_public:
                private.add(other.table_id)
            if other.user_id is not None:
                sat.setdefault(other.table_id, set()).add(other.user_id)
            if other.table_id not in by_table:
                continue
            if other.hides_stats and other.user is not None and other.user_id != viewer_id:
                closed_pages.add(other.user.get_username())
            if other.user_id == user.pk:
                by_table[other.table_id].finished = other.finished
                continue
            by_table[other.table_id].others.append(
                {
                    "username": other.user.get_username() if other.user else None,
                    "bot": other.user is None,
                    "name": other.user.get_username() if other.user else bot_name(other.seat),
                    "place": other.place,
                    "total": other.total,
                }
            )
    # A private game's replay is for those who sat at it: a stranger's link to one led only
    # to a refusal, so the page names it without a link.
    replay_closed = {t for t in private if viewer_id not in sat[t]}

    h2h = figures.pop("h2h")
    names = {}
    for pk, name, hides in (
        get_user_model()
        .objects.filter(pk__in=[int(k) for k in h2h])
        .values_list("pk", "username", "profile__stats_hidden")
    ):
        names[pk] = name
        if hides and pk != viewer_id:
            closed_pages.add(name)
    figures["head_to_head"] = sorted(
        (
            {"username": names[int(k)], "games": v[0], "above": v[1], "below": v[2]}
            for k, v in h2h.items()
            if int(k) in names
        ),
        key=lambda h: (-h["games"], h["username"]),
    )

    played: dict[str, dict[str, int]] = {}
    for row in (
        Seat.objects.filter(user=user)
        # Not yet started, or aborted by a moderator: statistics skip aborted tables.
        .exclude(table__status__in=[Table.Status.OPEN, Table.Status.ABORTED])
        .values("table__ruleset", "table__status")
        .annotate(n=Count("id"))
    ):
        played.setdefault(row["table__ruleset"], {})[row["table__status"]] = row["n"]
    in_scope = [v for k, v in played.items() if scope == ALL or k == scope]
    figures["games_played"] = sum(sum(v.values()) for v in in_scope)
    figures["games_finished"] = sum(v.get(str(Table.Status.FINISHED), 0) for v in in_scope)
    # Days spent in the current year (UTC, as the allowance): a count of another year is stale.
    this_year = timezone.now().year
    figures["pace"]["vacation_days_used"] = (
        profile.vacation_days_used
        if profile is not None and profile.vacation_year == this_year
        else 0
    )

    # Rating after each rated game; "game" numbers the rated games in the scope in the order
    # they finished, one axis for every ruleset.
    history_points: dict[str, list[dict[str, Any]]] = {}
    n = 0
    for r in scoped:
        if r[5] and r[8] is not None:
            history_points.setdefault(r[1], []).append(
                {"game": n, "table": r[0], "rating": display(r[8])}
            )
            n += 1
    return {
        "user": user,
        "username": user.get_username(),
        "reliability": reliability(user),
        "aborted": aborted_games(user),
        "hidden": bool(profile and profile.stats_hidden),
        # A moderator reads a page its owner hid (the page says so; the read is audited).
        "moderator_view": moderator_view,
        "scope": scope,
        "rulesets": rulesets,
        "ratings": {
            k: rating_out(r.mu, r.sigma, r.games) for k, r in sorted(ratings.items()) if r.games
        },
        "rating_history": history_points,
        "figures": figures,
        "history": recent,
        "history_page": history_page,
        "history_pages": history_pages,
        "replay_closed": replay_closed,
        "closed_pages": closed_pages,
    }


def _current_streak(results: list[tuple]) -> int:
    n = 0
    for r in reversed(results):
        if r[3] != 1:
            break
        n += 1
    return n


def _best_streak(results: list[tuple]) -> int:
    best = run = 0
    for r in results:
        run = run + 1 if r[3] == 1 else 0
        best = max(best, run)
    return best


def leaderboard(*, ruleset: str, limit: int = 100) -> list[dict[str, Any]]:
    """Players with at least ``MAYI_LEADERBOARD_MIN_GAMES`` rated games in ``ruleset``, best
    first, hidden profiles left out. The order is the conservative estimate μ − 3σ (a lucky
    newcomer's high μ is uncertain), not the shown rating; the page says so."""
    rows = list(
        # A suspended or banned account (is_active off) is left off while the restriction
        # lasts: a player banned for cheating kept the place the cheating won them.
        Rating.objects.filter(
            ruleset=ruleset, games__gte=leaderboard_min_games(), user__is_active=True
        )
        .exclude(user__profile__stats_hidden=True)
        .select_related("user")
    )
    board = [
        {"username": r.user.get_username(), **rating_out(r.mu, r.sigma, r.games)} for r in rows
    ]
    board.sort(key=lambda e: (-(e["mu"] - 3 * e["sigma"]), e["username"]))
    for i, entry in enumerate(board[:limit], start=1):
        entry["rank"] = i
    return board[:limit]


def leaderboard_rulesets() -> list[str]:
    return sorted(set(Rating.objects.values_list("ruleset", flat=True).distinct()))


def profile_part(*, user: User, profile: Profile, now: datetime) -> dict[str, object]:
    """What the member's profile page shows of their rounds (``accounts.hooks.provide_profile``):
    how many they played, went out first in, their points and MAYI melds, from their round
    records. Aborted tables count for nothing here, as in the statistics."""
    rounds = (
        RoundRecord.objects.filter(user=user)
        .exclude(table__status=Table.Status.ABORTED)
        .aggregate(
            rounds=Count("id"),
            went_out=Count("id", filter=Q(went_out=True)),
            points=Sum("score"),
            mayi_melds=Sum("mayi_melds"),
        )
    )
    return {"rounds": rounds}
