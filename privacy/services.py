"""A player's own data: the download of everything the site holds about them, and the deletion
of their account.

**The download** (``export_request`` in the request, ``export_build`` in a Celery task): a zip
of JSON files, with CSV beside the tabular ones, linked for ``LINK_HOURS`` hours to its owner
alone. Games are the games they sat at, each with its moves; the seed of a finished game (as
its replay shows it to anyone); the events of a game still being played as *their* seat saw
them (``engine.public_events``): never another player's hidden cards.

**The deletion** (``account_delete``, confirmed with the password): the name becomes
``deleted-<id>``; the email, the password, every session, API token, push subscription,
friendship and block are gone; the text of their chat messages is removed; their ratings and
statistics leave the leaderboard and the statistics pages; their seats in games being played go
to the bot and their seats at tables still waiting are given up. The games stay, with the seat
showing the new name, so every game still replays. The moderation record (restrictions,
reports by and about them, the audit log) is kept, as the law allows for preventing abuse: the
page says so.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import zipfile
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken, Profile
from accounts.names import skeleton_store
from analysis.models import Decision
from chat.models import ChatMessage
from games import engine
from games.models import Move, Seat, Table
from games.services import ServiceError, seat_resign, send_task_after_commit, table_leave
from moderation.live import close_user_sockets_on_commit
from moderation.models import Report
from notify.models import NotifyPrefs, PushSubscription
from social.models import Block, Follow
from stats.models import GameResult, PlayerStats, Rating, RoundRecord

from .models import DataExport

logger = logging.getLogger("privacy")

BUILD_EXPORT = "privacy.tasks.build_export"
LINK_HOURS = 24
DELETED_PREFIX = "deleted-"


class WrongPassword(ServiceError):
    status = 403
    code = "wrong_password"


class ExportNotFound(ServiceError):
    status = 404
    code = "export_not_found"


# -- the download ---------------------------------------------------------------------------


def export_request(*, user: User) -> DataExport:
    """Start a download of ``user``'s data; a Celery task builds it after the commit."""
    with transaction.atomic():
        export = DataExport.objects.create(user=user)
        send_task_after_commit(
            BUILD_EXPORT,
            (export.pk,),
            queue=settings.CELERY_TASK_DEFAULT_QUEUE,
            what=f"the data export {export.pk}",
        )
    return export


def export_of(*, user: User, export_id: int) -> DataExport:
    """One of ``user``'s own exports (another's is not found, as if it did not exist)."""
    export = DataExport.objects.filter(pk=export_id, user=user).defer("content").first()
    if export is None:
        raise ExportNotFound("no such export")
    return export


def export_live(export: DataExport, now: Any = None) -> bool:
    return export.live_at(now or timezone.now())


def export_build(*, export_id: int) -> str:
    """Build the zip of a pending export (a task; safe to run twice: the second does nothing)."""
    claimed = DataExport.objects.filter(pk=export_id, status=DataExport.Status.PENDING).first()
    if claimed is None:
        return "gone"
    try:
        content = export_zip(claimed.user)
    except Exception:
        logger.exception("data export %s failed", export_id)
        DataExport.objects.filter(pk=export_id).update(status=DataExport.Status.FAILED)
        return "failed"
    now = timezone.now()
    DataExport.objects.filter(pk=export_id, status=DataExport.Status.PENDING).update(
        status=DataExport.Status.READY,
        content=content,
        size=len(content),
        ready_at=now,
        expires=now + timedelta(hours=LINK_HOURS),
    )
    return "ready"


def exports_expire(*, now: Any = None) -> int:
    """Drop the content of downloads past their 24 hours (beat)."""
    now = now or timezone.now()
    return DataExport.objects.filter(expires__lte=now).exclude(content=None).update(content=None)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _csv(rows: list[dict[str, Any]], columns: list[str]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row.get(k) for k in columns})
    return out.getvalue().encode()


def _profile(user: User) -> dict[str, Any]:
    profile = Profile.objects.filter(user=user).first()
    prefs = NotifyPrefs.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "email": user.email,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "profile": {
            field.name: (_iso(v) if hasattr(v := getattr(profile, field.name), "isoformat") else v)
            for field in Profile._meta.concrete_fields
            if field.name not in ("id", "user")
        }
        if profile
        else None,
        "notifications": {
            field.name: getattr(prefs, field.name)
            for field in NotifyPrefs._meta.concrete_fields
            if field.name not in ("id", "user")
        }
        if prefs
        else None,
        "api_tokens": [
            {"prefix": t.prefix, "created": _iso(t.created)}
            for t in ApiToken.objects.filter(user=user).order_by("pk")
        ],
        "push_subscriptions": [
            {"label": s.label, "created": _iso(s.created)}
            for s in PushSubscription.objects.filter(user=user).order_by("pk")
        ],
        "following": list(
            Follow.objects.filter(follower=user).values_list("followed__username", flat=True)
        ),
        "blocked": list(
            Block.objects.filter(blocker=user).values_list("blocked__username", flat=True)
        ),
    }


def _games(user: User) -> list[dict[str, Any]]:
    games = []
    seats = Seat.objects.filter(user=user).select_related("table").order_by("table_id")
    for seat in seats:
        table = seat.table
        finished = table.status in (Table.Status.FINISHED, Table.Status.ABORTED) and bool(
            table.state and table.state.get("game_over")
        )
        players = [
            {"seat": s.position, "name": s.user.get_username() if s.user else None, "bot": s.is_bot}
            for s in Seat.objects.filter(table=table).select_related("user").order_by("position")
        ]
        moves = []
        for move in Move.objects.filter(table=table).order_by("seq"):
            # A finished game is public to its last card (its replay shows it to anyone); a
            # game still going shows each move's events as this seat saw them.
            events = move.events if finished else engine.public_events(move.events, seat.position)
            moves.append(
                {
                    "seq": move.seq,
                    "seat": move.seat,
                    "by_bot": move.by_bot,
                    "at": _iso(move.created),
                    "action": move.action,
                    "events": events,
                }
            )
        results = list(
            RoundRecord.objects.filter(table=table, seat=seat.position)
            .order_by("round_no")
            .values("round_no", "score", "went_out", "buys", "mayi_melds", "by_bot")
        )
        games.append(
            {
                "table": table.pk,
                "ruleset": table.ruleset,
                "options": table.options,
                "status": table.status,
                "created": _iso(table.created),
                "my_seat": seat.position,
                "players": players,
                "seed": (table.state or {}).get("seed") if finished else None,
                "seed_sha256": table.seed_sha256 or None,
                "moves": moves,
                "my_rounds": results,
            }
        )
    return games


def _chat(user: User) -> list[dict[str, Any]]:
    return [
        {
            "id": m.pk,
            "table": m.table_id,
            "at": _iso(m.created),
            "text": m.text,
            "reaction": m.reaction,
            "audience": m.audience,
        }
        for m in ChatMessage.objects.filter(author=user).order_by("pk")
    ]


def _reports(user: User) -> list[dict[str, Any]]:
    # What they wrote and where it stands; a moderator's own notes are not theirs.
    return [
        {
            "id": r.pk,
            "table": r.table_id,
            "reason": r.reason,
            "note": r.note,
            "status": r.status,
            "about": r.reported_user.get_username() if r.reported_user else None,
            "message": r.message_id,
            "created": _iso(r.created),
        }
        for r in Report.objects.filter(reporter=user).select_related("reported_user").order_by("pk")
    ]


def _ratings(user: User) -> list[dict[str, Any]]:
    return [
        {
            "ruleset": r.ruleset,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "updated": _iso(r.updated),
        }
        for r in Rating.objects.filter(user=user).order_by("ruleset")
    ]


def _statistics(user: User) -> dict[str, Any]:
    return {
        "per_ruleset": {s.ruleset: s.data for s in PlayerStats.objects.filter(user=user)},
        "games": [
            {k: (_iso(v) if hasattr(v, "isoformat") else v) for k, v in row.items()}
            for row in GameResult.objects.filter(user=user).order_by("table_id").values()
        ],
    }


def _decisions(user: User) -> list[dict[str, Any]]:
    """Their decisions weighed by the analysis of finished games (docs/ANALYSIS.md)."""
    return [
        {
            "table": d.analysis_id,
            "move": d.seq,
            "round": d.round_no,
            "kind": d.kind,
            "action": d.action,
            "best": d.best,
            "cost": d.cost,
            "low": d.low,
            "high": d.high,
            "label": d.label,
            "samples": d.samples,
        }
        for d in Decision.objects.filter(user=user).order_by("analysis_id", "seq")
    ]


def export_files(user: User) -> dict[str, bytes]:
    """The files of ``user``'s download, by name."""
    games = _games(user)
    decisions = _decisions(user)
    chat = _chat(user)
    ratings = _ratings(user)

    def dump(value: Any) -> bytes:
        return json.dumps(value, indent=1, ensure_ascii=False, default=str).encode()

    game_rows = [
        {
            "table": g["table"],
            "ruleset": g["ruleset"],
            "status": g["status"],
            "created": g["created"],
            "my_seat": g["my_seat"],
            "players": " ".join(p["name"] or "bot" for p in g["players"]),
            "moves": len(g["moves"]),
            "seed": g["seed"] or "",
        }
        for g in games
    ]
    return {
        "README.txt": (
            b"Everything May I? holds about you, as of the time in profile.json.\n"
            b"JSON files hold it all; the CSV files repeat the tables of them for spreadsheets.\n"
            b"games.json: every game you sat at, with its moves. A finished game's seed is there\n"
            b"(its deals can be checked with manage.py verify_game); a game still being played\n"
            b"shows each move as your seat saw it.\n"
            b"analysis.json: your decisions in analysed games, each with the best choice found\n"
            b"and what yours cost in expected penalty points.\n"
        ),
        "profile.json": dump({"exported": _iso(timezone.now()), **_profile(user)}),
        "games.json": dump(games),
        "games.csv": _csv(game_rows, list(game_rows[0]) if game_rows else ["table"]),
        "chat.json": dump(chat),
        "chat.csv": _csv(chat, ["id", "table", "at", "text", "reaction", "audience"]),
        "reports.json": dump(_reports(user)),
        "ratings.json": dump(ratings),
        "ratings.csv": _csv(ratings, ["ruleset", "mu", "sigma", "games", "updated"]),
        "statistics.json": dump(_statistics(user)),
        "analysis.json": dump(decisions),
        "analysis.csv": _csv(
            decisions, ["table", "move", "round", "kind", "cost", "low", "high", "label"]
        ),
    }


def export_zip(user: User) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in export_files(user).items():
            archive.writestr(name, data)
    return buffer.getvalue()


# -- the deletion ---------------------------------------------------------------------------


def deleted_name(user: User) -> str:
    return f"{DELETED_PREFIX}{user.pk}"


def _end_sessions(user: User) -> int:
    """Delete every stored session of ``user`` (the password's change would sign them out
    anyway; the rows go too)."""
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            session.delete()
            ended += 1
    return ended


def account_delete(*, user: User, password: str) -> User:
    """Delete ``user``'s account as the module says, after checking ``password``."""
    if not user.has_usable_password() or not user.check_password(password):
        raise WrongPassword("the password is not right")
    new_name = deleted_name(user)
    with transaction.atomic():
        for table_id in list(
            Seat.objects.filter(user=user, table__status=Table.Status.OPEN)
            .order_by("table_id")
            .values_list("table_id", flat=True)
        ):
            table_leave(user=user, table_id=table_id)
        for table_id in list(
            Seat.objects.filter(
                user=user, expelled=False, is_bot=False, table__status=Table.Status.PLAYING
            )
            .order_by("table_id")
            .values_list("table_id", flat=True)
        ):
            seat_resign(table_id=table_id, user=user)
        User.objects.filter(pk=user.pk).update(
            username=new_name, email="", first_name="", last_name="", is_active=False
        )
        user.username, user.email, user.is_active = new_name, "", False
        # The update sends no post_save: the old name's look-alike skeleton goes by hand.
        skeleton_store(user_id=user.pk, username=new_name)
        user.set_unusable_password()
        user.save(update_fields=["password"])
        ApiToken.objects.filter(user=user).delete()
        PushSubscription.objects.filter(user=user).delete()
        NotifyPrefs.objects.filter(user=user).delete()
        Follow.objects.filter(follower=user).delete()
        Follow.objects.filter(followed=user).delete()
        Block.objects.filter(blocker=user).delete()
        Block.objects.filter(blocked=user).delete()
        ChatMessage.objects.filter(author=user).update(text="", reaction="")
        Rating.objects.filter(user=user).delete()
        PlayerStats.objects.filter(user=user).delete()
        Profile.objects.filter(user=user).update(stats_hidden=True, vacation_until=None)
        DataExport.objects.filter(user=user).delete()
        _end_sessions(user)
        close_user_sockets_on_commit(user.pk, "account deleted")
    logger.warning("account %s deleted (now %s)", user.pk, new_name)
    return user
