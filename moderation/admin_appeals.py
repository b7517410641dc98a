"""The admin's appeals queue (senior moderators only: ``view_appeal``) and the canned reasons
(read by every moderator, edited by seniors)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from . import services
from .admin_actions import form_action
from .admin_readonly import NoHandEdits
from .models import Appeal, CannedReason


class DecideForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[
            (Appeal.Status.UPHELD, "uphold: nothing changes"),
            (Appeal.Status.SHORTENED, "shorten: it ends sooner (give the new length below)"),
            (Appeal.Status.LIFTED, "lift: it ends now"),
        ],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text="The member reads it (by email and on their profile or sign-in page).",
    )
    days = forms.IntegerField(
        min_value=0, max_value=3650, required=False, help_text="shorten: days from now"
    )
    hours = forms.IntegerField(min_value=0, max_value=23, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("decision") == Appeal.Status.SHORTENED:
            length = timedelta(days=data.get("days") or 0, hours=data.get("hours") or 0)
            if length <= timedelta(0):
                raise forms.ValidationError("give the shortened restriction's length from now")
            data["until"] = timezone.now() + length
        return data


def _actor(request: HttpRequest) -> User:
    """The staff member deciding (the admin site lets only signed-in staff in)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _decide(request: HttpRequest, appeal: Appeal, data: dict[str, Any]) -> Appeal:
    return services.appeal_decide(
        actor=_actor(request),
        appeal_id=appeal.pk,
        decision=data["decision"],
        reason=data["reason"],
        until=data.get("until"),
    )


@admin.register(Appeal)
class AppealAdmin(NoHandEdits):
    list_display = ("__str__", "member", "restriction_line", "imposed_by", "created", "status")
    list_filter = ("status", "created")
    search_fields = ("member__username", "text")
    list_select_related = ("member", "restriction", "restriction__created_by")
    fields = (
        "member",
        "restriction_line",
        "imposed_by",
        "text",
        "status",
        "decided_by",
        "decided",
        "decision_reason",
    )
    readonly_fields = fields
    actions = [
        form_action(
            name="decide",
            description="Decide the appeal",
            permission="decide",
            form_class=DecideForm,
            apply=_decide,
        )
    ]

    class Media:
        css = {"all": ("moderation/moderation.css",)}

    def page_actions(self, request: HttpRequest, obj: Any) -> list[dict[str, Any]]:
        # The decision as a button on the appeal's own page (the list's action for this row).
        if (
            obj is None
            or obj.status != Appeal.Status.PENDING
            or not self.has_decide_permission(request)
        ):
            return []
        return [
            {
                "url": reverse("admin:moderation_appeal_changelist"),
                "pk": obj.pk,
                "action": "decide",
                "label": "Decide…",
            }
        ]

    def has_decide_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return isinstance(user, User) and user.has_perm("moderation.decide_appeal")

    @admin.display(description="restriction")
    def restriction_line(self, obj: Appeal) -> str:
        r = obj.restriction
        until = f"until {r.until:%Y-%m-%d %H:%M}" if r.until else "for good"
        return format_html(
            '<a href="{}">{} {}</a>: {}{}',
            reverse("admin:moderation_member_change", args=[obj.member_id]),
            r.get_kind_display(),
            until,
            r.reason,
            "" if r.preset_id else " (free text)",
        )

    @admin.display(description="imposed by")
    def imposed_by(self, obj: Appeal) -> str:
        # The one moderator who may not decide it.
        return str(obj.restriction.created_by or "the site")


@admin.register(CannedReason)
class CannedReasonAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "suggested_hours", "active")
    list_filter = ("kind", "active")
    search_fields = ("title", "message")
