"""The moderators' admin: every change goes through a moderation service (with its audit
row); every list here is read-only otherwise."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.decorators import method_decorator
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.timezone import localtime
from django.views.decorators.gzip import gzip_page

from chat.models import ChatMessage
from chat.services import chat_hide, chat_unhide
from games import engine
from games.engine import IllegalMove
from games.errors import error_body
from games.names import bot_name
from games.services import ServiceError
from stats.replay import card_face, describe, seat_names

from . import (
    admin_appeals,  # noqa: F401 (registers the appeals' and presets' admins)
    services,
)
from .admin_actions import (
    AbortForm,
    BanForm,
    DurationForm,
    ReasonForm,
    ResolveForm,
    SuspendForm,
    form_action,
)
from .admin_readonly import ReadOnly
from .models import AuditEntry, Member, MemberNote, Report, Restriction, TableCase
from .permissions import GROUPS, role_of
from .recusal import recusal_reason
from .selectors import (
    ReportCounts,
    in_force,
    member_file,
    member_record,
    muted_until,
    report_counts,
    report_queue,
    suggestions,
)


def _moderator(request: HttpRequest) -> User:
    """The staff member acting (the admin site lets only signed-in staff in)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _perm(request: HttpRequest, codename: str, app: str = "moderation") -> bool:
    user = request.user
    return isinstance(user, User) and user.has_perm(f"{app}.{codename}")


# The stock's cards the inspect page names, the next to be dealt first.
STOCK_SHOWN = 8


def inspect_url(table_id: int, move: int | None = None) -> str:
    url = reverse("admin:moderation_tablecase_inspect", args=[table_id])
    return f"{url}?move={move}" if move is not None else url


# ---- users ------------------------------------------------------------------------------------


class RoleForm(forms.Form):
    role = forms.ChoiceField(
        choices=[*((role, GROUPS[role]) for role in GROUPS), ("none", "no role (a player)")],
        widget=forms.RadioSelect,
        help_text="docs/MODERATION.md says what each role may do.",
    )


def _wording(data: dict[str, Any]) -> dict[str, Any]:
    """A restriction form's reason: the canned one picked, or the free text; and the note."""
    return {"preset": data.get("preset"), "reason": data["reason"], "note": data.get("note", "")}


def _duration(data: dict[str, Any]) -> timedelta:
    return timedelta(days=data["days"] or 0, hours=data["hours"] or 0)


@admin.register(Member)
class MemberAdmin(ReadOnly):
    list_display = ("username", "email", "is_active", "is_staff", "standing", "date_joined")
    list_filter = ("is_active", "is_staff")
    search_fields = ("username", "email")
    # The account's own fields through callables: Django's help texts under them ("Unselect
    # this instead of deleting accounts", "Letters, digits and @/./+/-/_ only") spoke of
    # editing a page the moderator only reads.
    fields = (
        "name",
        "email",
        "account",
        "role",
        "date_joined",
        "last_login",
        "restriction_history",
        "reports_about",
        "games_played",
    )
    readonly_fields = (
        "name",
        "account",
        "role",
        "restriction_history",
        "reports_about",
        "games_played",
    )
    ordering = ("username",)

    class Media:
        css = {"all": ("moderation/moderation.css",)}

    actions = [
        form_action(
            name="suspend",
            description="Suspend for a time",
            permission="suspend",
            form_class=SuspendForm,
            apply=lambda request, user, data: services.user_suspend(
                actor=_moderator(request),
                user=user,
                duration=_duration(data),
                **_wording(data),
            ),
            explain=lambda members: {"suggestions": suggestions(members, "suspend")},
        ),
        form_action(
            name="ban",
            description="Ban",
            permission="ban",
            form_class=BanForm,
            apply=lambda request, user, data: services.user_ban(
                actor=_moderator(request), user=user, **_wording(data)
            ),
            explain=lambda members: {"suggestions": suggestions(members, "ban")},
        ),
        form_action(
            name="mute",
            description="Mute in chat for a time",
            permission="mute",
            form_class=DurationForm,
            apply=lambda request, user, data: services.user_mute(
                actor=_moderator(request),
                user=user,
                duration=_duration(data),
                **_wording(data),
            ),
            explain=lambda members: {"suggestions": suggestions(members, "mute")},
        ),
        form_action(
            name="give_role",
            description="Give a moderator role, or take it away",
            permission="roles",
            form_class=RoleForm,
            apply=lambda request, user, data: services.moderator_grant(
                actor=_moderator(request),
                user=user,
                role=data["role"] if data["role"] != "none" else "chat",
                remove=data["role"] == "none",
            ),
        ),
    ]

    @admin.display(description="username")
    def name(self, obj: Any) -> str:
        return str(obj.get_username())

    @admin.display(description="account")
    def account(self, obj: Any) -> str:
        return "can sign in" if obj.is_active else "cannot sign in (suspended or banned)"

    @admin.display(description="role")
    def role(self, obj: Any) -> str:
        if obj.is_superuser:
            return "superuser"
        role = role_of(obj)
        if role is not None:
            return GROUPS[role][:-1].lower() if role != "admin" else "administrator"
        return "staff" if obj.is_staff else "player"

    @admin.display(description="restrictions in force")
    def standing(self, obj: Any) -> str:
        live = [str(r.get_kind_display()) for r in obj.restrictions.all() if r.lifted is None]
        return ", ".join(live) or "—"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("restrictions")

    # The member's page acts on them (suspend, ban, mute, lift one in force): before, the
    # moderator went back to a list and found the row again.
    def page_actions(self, request: HttpRequest, obj: Any) -> list[dict[str, Any]]:
        return _member_actions(request, obj)

    # A moderator deciding on a suspension needs the member's record on the member's own
    # page: what they were restricted for before, what others reported, and their games.
    @admin.display(description="restrictions, newest first")
    def restriction_history(self, obj: Any) -> str:
        past = obj.restrictions.select_related("created_by", "preset").order_by("-created")
        if not past:
            return "none"
        rows = format_html_join(
            "",
            "<li>{}: {}, from {} {} (by {}): {} <em>({})</em>{}</li>",
            (
                (
                    "in force"
                    if r.lifted is None
                    else "ended " + date_format(localtime(r.lifted), "DATETIME_FORMAT"),
                    r.get_kind_display(),
                    date_format(localtime(r.created), "DATETIME_FORMAT"),
                    _lasting(r),
                    r.created_by or "the site",
                    r.reason,
                    # Free text is marked: a canned reason is the team's policy, in its words.
                    "canned reason" if r.preset_id else "free text",
                    format_html(" · moderator's note: {}", r.note) if r.note else "",
                )
                for r in past
            ),
        )
        return format_html("<ul>{}</ul>", rows)

    @admin.display(description="reports about them")
    def reports_about(self, obj: Any) -> str:
        return _reports_about(obj, report_counts(obj)) or "none"

    @admin.display(description="games and moderation")
    def games_played(self, obj: Any) -> str:
        tables = reverse("admin:moderation_tablecase_changelist")
        audit = reverse("admin:moderation_auditentry_changelist")
        return format_html(
            '<a href="{}?{}">their tables</a> · <a href="{}">statistics page</a> · '
            '<a href="{}?target_user__id__exact={}">moderation log about them</a>',
            tables,
            urlencode({"q": obj.username}),
            reverse("player_stats", args=[obj.username]),
            audit,
            obj.pk,
        )

    def page_context(self, request: HttpRequest, obj: Any) -> dict[str, Any]:
        return {"file": member_file(obj) if obj else None}

    def get_urls(self) -> list:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:member_id>/notes/add/",
                wrap(self.note_add_view),
                name="moderation_member_note_add",
            ),
            path(
                "notes/<int:note_id>/delete/",
                wrap(self.note_delete_view),
                name="moderation_member_note_delete",
            ),
            *super().get_urls(),
        ]

    def note_add_view(self, request: HttpRequest, member_id: int) -> HttpResponse:
        member = get_object_or_404(Member, pk=member_id)
        if request.method == "POST":
            try:
                services.note_add(
                    actor=_moderator(request), member=member, text=request.POST.get("text", "")
                )
            except ServiceError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, "The note is saved.", messages.SUCCESS)
        return redirect(reverse("admin:moderation_member_change", args=[member_id]) + "#file-notes")

    def note_delete_view(self, request: HttpRequest, note_id: int) -> HttpResponse:
        note = get_object_or_404(MemberNote, pk=note_id)
        if request.method == "POST":
            services.note_delete(
                actor=_moderator(request), note_id=note_id, reason=request.POST.get("reason", "")
            )
            self.message_user(request, "The note is deleted (the log keeps it).", messages.SUCCESS)
        return redirect(
            reverse("admin:moderation_member_change", args=[note.member_id]) + "#file-notes"
        )

    def has_suspend_permission(self, request: HttpRequest) -> bool:
        return _perm(request, "suspend_member")

    def has_roles_permission(self, request: HttpRequest) -> bool:
        return _perm(request, "roles_member")

    def has_ban_permission(self, request: HttpRequest) -> bool:
        return _perm(request, "ban_member")

    def has_mute_permission(self, request: HttpRequest) -> bool:
        return _perm(request, "mute_member")


class InForce(admin.SimpleListFilter):
    # Django's filter for an empty date said "By lifted: Empty / Not empty": a moderator
    # looking for who is suspended now had to know that an expired restriction counts as
    # lifted.
    title = "in force"
    parameter_name = "in_force"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "in force now"), ("no", "ended (lifted or expired)")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        live = in_force()
        if self.value() == "yes":
            return queryset.filter(live)
        if self.value() == "no":
            return queryset.exclude(live)
        return queryset


@admin.register(Restriction)
class RestrictionAdmin(ReadOnly):
    list_display = ("user", "kind", "until", "lifted", "created_by", "created", "reason")
    list_filter = ("kind", InForce, "created")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")
    actions = [
        form_action(
            name="lift",
            description="Lift now",
            permission="lift",
            form_class=ReasonForm,
            apply=lambda request, r, data: services.restriction_lift(
                actor=_moderator(request), restriction_id=r.pk, reason=data["reason"]
            ),
        )
    ]

    def has_lift_permission(self, request: HttpRequest) -> bool:
        # Any moderator lifts their own restriction; another's needs a senior (the service
        # checks each row and says so).
        return _perm(request, "lift_member") or _perm(request, "mute_member")


# ---- chat -------------------------------------------------------------------------------------


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly):
    # Text is shown as text: the admin escapes it like every value.
    list_display = ("created", "table_link", "author", "audience", "hidden", "text")
    list_filter = ("hidden", "audience", "created")
    search_fields = ("text", "author__username", "=table__id")
    list_select_related = ("author", "table")

    class Media:
        # A message's text breaks anywhere (one long word would widen the page).
        css = {"all": ("moderation/moderation.css",)}

    actions = [
        form_action(
            name="hide",
            description="Hide (kept for the record)",
            permission="hide",
            form_class=ReasonForm,
            apply=lambda request, m, data: chat_hide(
                message_id=m.pk, moderator=_moderator(request), reason=data["reason"]
            ),
        ),
        # A message hidden by mistake (or on appeal) comes back: whoever may hide may undo.
        form_action(
            name="unhide",
            description="Show again (undo a hide)",
            permission="hide",
            form_class=ReasonForm,
            apply=lambda request, m, data: chat_unhide(
                message_id=m.pk, moderator=_moderator(request), reason=data["reason"]
            ),
        ),
    ]

    @admin.display(description="table")
    def table_link(self, obj: ChatMessage) -> str:
        return format_html(
            '<a href="{}">#{} at move {}</a>',
            inspect_url(obj.table_id, obj.move_seq),
            obj.table_id,
            obj.move_seq,
        )

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return _perm(request, "hide_chatmessage", "chat")


# ---- reports ----------------------------------------------------------------------------------


def _act(model: str, pk: int, action: str, label: str) -> dict[str, Any]:
    """A button of a page's object tools that runs ``action`` of ``model``'s list on ``pk``
    (moderation/templates/admin/moderation/_action_buttons.html)."""
    url = reverse(f"admin:{model}_changelist")
    return {"url": url, "pk": pk, "action": action, "label": label}


def _member_actions(request: HttpRequest, member: Any) -> list[dict[str, Any]]:
    if member is None:
        return []
    mute = _mute_label(member, "Mute in chat…")
    out = [
        _act("moderation_member", member.pk, action, label)
        for action, label in (("suspend", "Suspend…"), ("ban", "Ban…"), ("mute", mute))
        if _perm(request, f"{action}_member")
    ]
    anyone_s = _perm(request, "lift_member")
    for r in member.restrictions.filter(in_force()).order_by("created"):
        if anyone_s or (r.created_by_id == request.user.pk and _perm(request, "mute_member")):
            out.append(
                _act("moderation_restriction", r.pk, "lift", f"Lift: {r.get_kind_display()}…")
            )
    return out


def _mute_label(member: Any, label: str) -> str:
    """The mute button's words: "Muted until …" when a mute is in force (pressing it mutes
    anew: a longer one, say), else ``label``."""
    mute = muted_until(member)
    if mute is None or mute.until is None:
        return label
    return "Muted until " + date_format(localtime(mute.until), "DATETIME_FORMAT") + " …"


def _handles(request: HttpRequest, report: Report) -> bool:
    """Whether the moderator's role works the report's room."""
    if report.room == Report.Room.CHAT:
        return _perm(request, "handle_chat_report")
    return _perm(request, "handle_play_report")


def _report_actions(request: HttpRequest, report: Report | None) -> list[dict[str, Any]]:
    if report is None:
        return []
    act = _act
    out = []
    if report.status != Report.Status.RESOLVED and _handles(request, report):
        if report.assignee_id != getattr(request.user, "pk", None):
            out.append(act("moderation_report", report.pk, "assign_to_me", "Assign to me"))
        out.append(act("moderation_report", report.pk, "resolve", "Resolve…"))
    message = report.message
    if message is not None and _perm(request, "hide_chatmessage", "chat"):
        if message.hidden:
            out.append(act("chat_chatmessage", message.pk, "unhide", "Show the message again…"))
        else:
            out.append(act("chat_chatmessage", message.pk, "hide", "Hide the message…"))
    target = report.reported_user
    if target is not None:
        name = target.get_username()
        mute = _mute_label(target, f"Mute {name}…")
        for action, label in (("mute", mute), ("suspend", f"Suspend {name}…")):
            if _perm(request, f"{action}_member"):
                out.append(act("moderation_member", target.pk, action, label))
    return out


@admin.register(Report)
class ReportAdmin(ReadOnly):
    # What was reported first: on a phone the list scrolls sideways after a few columns.
    list_display = (
        "what",
        "status",
        "reason",
        "reported_user",
        "table_link",
        "reporter",
        "assignee",
        "created",
    )
    list_display_links = ("what",)
    list_filter = (
        "status",
        "reason",
        ("assignee", admin.RelatedOnlyFieldListFilter),
        ("reported_user", admin.RelatedOnlyFieldListFilter),
        "created",
    )
    search_fields = ("reported_user__username", "reporter__username", "note", "=table__id")
    list_select_related = ("reported_user", "reporter", "assignee", "message")
    readonly_fields = (
        "status",
        "reason",
        "reporter",
        "reported_user",
        "their_record",
        "table_link",
        "chat_excerpt",
        "message_now",
        "note",
        "assignee",
        "resolution",
        "created",
        "resolved",
    )
    fields = readonly_fields

    class Media:
        css = {"all": ("moderation/moderation.css",)}

    actions = [
        form_action(
            name="assign_to_me",
            description="Assign to me",
            permission="work",
            form_class=forms.Form,
            apply=lambda request, r, data: services.report_assign(
                report_id=r.pk, actor=_moderator(request)
            ),
        ),
        form_action(
            name="resolve",
            description="Resolve with a note",
            permission="work",
            form_class=ResolveForm,
            apply=lambda request, r, data: services.report_resolve(
                report_id=r.pk, actor=_moderator(request), note=data["note"]
            ),
        ),
    ]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # "change" is the permission to work the queue (the actions); the form stays read-only.
        return obj is None and self.has_work_permission(request)

    def has_work_permission(self, request: HttpRequest) -> bool:
        # Each report's room is checked again by the service (a chat moderator may take the
        # chat room's reports only).
        return _perm(request, "handle_chat_report") or _perm(request, "handle_play_report")

    def get_urls(self) -> list:
        wrap = self.admin_site.admin_view
        return [
            path("queue/", wrap(self.queue_view), name="moderation_report_queue"),
            *super().get_urls(),
        ]

    def queue_view(self, request: HttpRequest) -> HttpResponse:
        """The triaged queue: one case per member, highest priority first, by room."""
        if not _perm(request, "view_report"):
            raise PermissionDenied
        rooms = [str(value) for value in Report.Room.values]
        asked = request.GET.get("room", "")
        # A chat moderator works the chat room only: it is where their queue opens.
        if "room" not in request.GET and not _perm(request, "handle_play_report"):
            asked = Report.Room.CHAT
        room = asked if asked in rooms else ""
        # A case the moderator must leave to another (about them, a member they blocked or
        # befriended) says so in its row: the buttons would only refuse.
        me = _moderator(request)
        cases = [
            (case, recusal_reason(me, case.member)) for case in report_queue(room=room or None)
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": "Report queue",
            "opts": self.model._meta,
            "cases": cases,
            "room": room,
            "rooms": rooms,
            "changelist": reverse("admin:moderation_report_changelist"),
        }
        return TemplateResponse(request, "admin/moderation/queue.html", context)

    @admin.display(description="table")
    def table_link(self, obj: Report) -> str:
        return format_html(
            '<a href="{}">#{} at move {}</a>',
            inspect_url(obj.table_id, obj.move_seq),
            obj.table_id,
            obj.move_seq,
        )

    @admin.display(description="report")
    def what(self, obj: Report) -> str:
        if obj.message is not None:
            return f"#{obj.pk} message: {obj.message.text[:80]}"
        return f"#{obj.pk} the player"

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        if obj is not None and obj.message_id is None:
            # A report of a player: there is no message to hide or show.
            fields = [f for f in fields if f != "message_now"]
        return fields

    # Whether the reported member was reported or restricted before: the moderator weighs a
    # first report differently from a fifth, and should see a mute already in force.
    @admin.display(description="their record")
    def their_record(self, obj: Report) -> str:
        if obj.reported_user is None:
            return "—"
        return _record_line(obj.reported_user)

    @admin.display(description="the reported message now")
    def message_now(self, obj: Report) -> str:
        if obj.message is None:
            return "—"
        return "hidden by a moderator" if obj.message.hidden else "shown at the table"

    # A moderator reading a report acts on it from here: each button posts the list action of
    # its page (its own permission and form) for this report, message or user.
    def page_actions(self, request: HttpRequest, obj: Any) -> list[dict[str, Any]]:
        return _report_actions(request, obj)

    @admin.display(description="chat up to the report")
    def chat_excerpt(self, obj: Report) -> str:
        if not obj.excerpt:
            return "—"
        rows = format_html_join(
            "",
            '<li class="{}"><strong>{}</strong> {} <small>(move {})</small></li>',
            (
                (
                    "reported" if obj.message_id == m.get("id") else "",
                    m.get("author") or "site",
                    m.get("text", ""),
                    m.get("move"),
                )
                for m in obj.excerpt
            ),
        )
        return format_html("<ol>{}</ol>", rows)


# ---- the audit log ----------------------------------------------------------------------------


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly):
    list_display = ("created", "actor", "action", "target_user", "table", "reason")
    list_filter = (
        "action",
        ("actor", admin.RelatedOnlyFieldListFilter),
        ("target_user", admin.RelatedOnlyFieldListFilter),
        "created",
    )
    search_fields = ("actor__username", "target_user__username", "reason", "=table__id")
    list_select_related = ("actor", "target_user", "table")
    date_hierarchy = "created"
    readonly_fields = ("created", "actor", "action", "target_user", "table", "reason", "details")


class AccountAdmin(UserAdmin):
    """Django's own user editor, for those allowed it (superusers). A read-only user field on
    the moderators' pages (a report's reporter, an audit entry's actor...) links through it, and
    a moderator, who may not read it, got a bare 403 there: they are shown the member's page."""

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if not self.has_view_or_change_permission(request) and request.user.has_perm(
            "moderation.view_member"
        ):
            return redirect("admin:moderation_member_change", object_id)
        return super().change_view(request, object_id, form_url, extra_context)


admin.site.unregister(User)
admin.site.register(User, AccountAdmin)


def _seat_name(names: list[str], seats: dict[int, Any], position: int) -> str:
    """The seat's name as players and the replay read it; an expelled player's seat says the
    bot plays it for them."""
    seat = seats.get(position)
    return names[position] + (" (the bot plays)" if seat is not None and seat.expelled else "")


def _lasting(r: Restriction) -> str:
    """How long a restriction lasts: "for good", or "until" its end."""
    return (
        "for good"
        if r.until is None
        else "until " + date_format(localtime(r.until), "DATETIME_FORMAT")
    )


def _reports_about(user: Any, counts: ReportCounts, *, said: str = "") -> str:
    """The reports about ``user``, linked to the list of them; empty when there are none.
    ``said`` follows "N reports" where the label around does not say whom they are about."""
    if not counts.total:
        return ""
    return format_html(
        '<a href="{}?reported_user__id__exact={}">{} report{}{}, {} not resolved</a>',
        reverse("admin:moderation_report_changelist"),
        user.pk,
        counts.total,
        "" if counts.total == 1 else "s",
        said,
        counts.unresolved,
    )


def _record_line(user: Any) -> str:
    """A member's record in one line: what a moderator weighs a report against."""
    record = member_record(user)
    parts = [_reports_about(user, record.reports, said=" about them")]
    for r in record.in_force:
        parts.append(
            format_html("<strong>{} {}</strong>", r.get_kind_display().lower(), _lasting(r))
        )
    if record.earlier_restrictions:
        parts.append(
            format_html(
                '<a href="{}?{}">{} earlier restriction{}</a>',
                reverse("admin:moderation_restriction_changelist"),
                urlencode({"q": user.username}),
                record.earlier_restrictions,
                "" if record.earlier_restrictions == 1 else "s",
            )
        )
    elif not record.in_force:
        parts.append("never restricted")
    return format_html_join(" · ", "{}", ((p,) for p in parts if p))


# ---- tables -----------------------------------------------------------------------------------


class ReseatForm(ReasonForm):
    position = forms.IntegerField(min_value=1, max_value=8, help_text="the seat, from 1")
    username = forms.CharField(
        required=False, help_text="the user who takes the seat over; empty: the bot plays it"
    )

    def clean_username(self) -> Any:
        name = self.cleaned_data.get("username", "").strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(f"there is no user {name!r}")
        return user


@admin.register(TableCase)
class TableCaseAdmin(ReadOnly):
    # The links (state and hands, reseat) right after the id: on a phone the list scrolls
    # sideways after a few columns, and they were the last one, out of sight.
    list_display = (
        "id",
        "links",
        "status",
        "players",
        "ruleset",
        "public",
        "move_count",
        "created",
    )
    list_filter = ("status", "ruleset", "public", "created")
    search_fields = ("=id", "seats__user__username", "host__username")
    fields = ("status", "ruleset", "public", "host", "version", "move_count", "created", "links")
    readonly_fields = fields
    actions = [
        form_action(
            name="abort",
            description="Abort (no winner, no ratings)",
            permission="abort",
            form_class=AbortForm,
            apply=lambda request, t, data: services.table_abort(
                actor=_moderator(request), table_id=t.pk, reason=data["reason"]
            ),
        )
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description="players")
    def players(self, obj: TableCase) -> str:
        return ", ".join(
            (s.user.get_username() if s.user else bot_name(s.position))
            + (" (bot plays)" if s.expelled else "")
            for s in sorted(obj.seats.all(), key=lambda s: s.position)
        )

    @admin.display(description="")
    def links(self, obj: TableCase) -> str:
        return format_html(
            '<a href="{}">state, hands, replay</a> · <a href="{}">reseat</a>',
            inspect_url(obj.pk),
            reverse("admin:moderation_tablecase_reseat", args=[obj.pk]),
        )

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return _perm(request, "abort_tablecase")

    def get_urls(self) -> list:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:table_id>/inspect/",
                wrap(self.inspect_view),
                name="moderation_tablecase_inspect",
            ),
            path(
                "<int:table_id>/inspect/frames/",
                wrap(self.inspect_frames_view),
                name="moderation_tablecase_inspect_frames",
            ),
            path(
                "<int:table_id>/reseat/", wrap(self.reseat_view), name="moderation_tablecase_reseat"
            ),
            *super().get_urls(),
        ]

    @method_decorator(gzip_page)
    def inspect_frames_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        """The moderator's replay's one fetch (static/js/replay.js on the inspect page): every
        move's frame with every hand and the stock's next cards, for any game that started."""
        get_object_or_404(TableCase, pk=table_id)
        try:
            frames = services.table_inspect_frames(
                actor=_moderator(request), table_id=table_id, stock_shown=STOCK_SHOWN
            )
        except PermissionDenied as exc:
            return JsonResponse(error_body("forbidden", str(exc)), status=403)
        except ServiceError as exc:
            return JsonResponse(error_body(exc.code, exc.message), status=exc.status)
        except IllegalMove as exc:
            message = f"this game's move log does not replay from its seed: {exc}"
            return JsonResponse(error_body("replay_failed", message), status=409)
        return JsonResponse(frames)

    def inspect_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        """Every move, and the full state (every hand, the stock) after any of them."""
        if not _perm(request, "inspect_tablecase"):
            raise PermissionDenied
        get_object_or_404(TableCase, pk=table_id)
        try:
            move = int(request.GET["move"]) if "move" in request.GET else None
        except ValueError:
            move = None
        try:
            record = services.table_inspect(actor=_moderator(request), table_id=table_id, move=move)
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return redirect("admin:moderation_tablecase_changelist")
        state = record["state"]
        seats = {s.position: s for s in record["seats"]}
        names = seat_names(record["seats"], record["table"].seat_count)
        view = engine.view(state, None) if state is not None else None
        stock = (state or {}).get("stock", [])
        hands = [
            {
                "position": position + 1,
                "who": _seat_name(names, seats, position),
                "cards": [card_face(c) for c in hand],
            }
            for position, hand in enumerate((state or {}).get("hands", []))
        ]
        to_play = view.get("active_seat") if view is not None else None
        top = view.get("discard_top") if view is not None else None
        context = {
            **self.admin_site.each_context(request),
            "title": f"Table #{table_id}: state and moves",
            "opts": self.model._meta,
            "table": record["table"],
            "at": record["at"],
            # Each move and chat line names its seat's player as the hands do: a moderator
            # weighing a report of stalling or collusion reads who did what, not seat numbers.
            # ... and what each move did in words, as the replay tells it (cards named: the
            # moderator sees every hand), the stored action beside it for the exact record.
            "moves": [
                (
                    m,
                    "" if m.seat is None else _seat_name(names, seats, m.seat),
                    "; ".join(describe(m.events or [], names, seat=m.seat)),
                )
                for m in record["moves"]
            ],
            "to_play": "" if to_play is None else _seat_name(names, seats, to_play),
            "hands": hands,
            "view": view,
            "discard_top": [card_face(top)] if top else [],
            "melds": [
                {
                    "id": m["id"],
                    "kind": m["kind"],
                    "position": m["owner"] + 1,
                    "who": _seat_name(names, seats, m["owner"]),
                    "cards": [card_face(c) for c in m["cards"]],
                }
                for m in (view or {}).get("melds", [])
            ],
            "stock": stock,
            # The next cards drawn: the stock is drawn from its end (draw_from_stock).
            "stock_next": [card_face(c) for c in stock[::-1][:STOCK_SHOWN]],
            "stock_more": len(stock) > STOCK_SHOWN,
            "state_json": state,
            # Every message of the table, spectators' and hidden ones included.
            "chat": ChatMessage.objects.filter(table_id=table_id).select_related("author"),
            "reseat_url": reverse("admin:moderation_tablecase_reseat", args=[table_id]),
            "frames_url": reverse("admin:moderation_tablecase_inspect_frames", args=[table_id]),
        }
        return TemplateResponse(request, "admin/moderation/inspect.html", context)

    def reseat_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        """Give a seat to the bot, or to another user."""
        if not _perm(request, "reseat_tablecase"):
            raise PermissionDenied
        table = get_object_or_404(TableCase, pk=table_id)
        form = ReseatForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                if data["username"] is None:
                    services.seat_to_bot(
                        actor=_moderator(request),
                        table_id=table_id,
                        position=data["position"] - 1,
                        reason=data["reason"],
                    )
                else:
                    services.seat_to_user(
                        actor=_moderator(request),
                        table_id=table_id,
                        position=data["position"] - 1,
                        user=data["username"],
                        reason=data["reason"],
                    )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(request, "The seat changed hands.", messages.SUCCESS)
                return redirect(inspect_url(table_id))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Table #{table_id}: reseat",
            "opts": self.model._meta,
            "table": table,
            "seats": list(table.seats.select_related("user")),
            "form": form,
        }
        return TemplateResponse(request, "admin/moderation/reseat.html", context)
