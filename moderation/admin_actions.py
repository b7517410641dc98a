"""Admin actions that ask for a reason (and a duration...) on a page of their own, then call
one moderation service per selected row. Each is gated by its permission through Django's
``allowed_permissions``: without it the action is neither offered nor run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.http import url_has_allowed_host_and_scheme

from games.services import ServiceError

from .models import CannedReason


def _reason(help_text: str) -> forms.CharField:
    return forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=2000, help_text=help_text
    )


class ReasonForm(forms.Form):
    """A reason kept in the audit log only (hide a message, lift a restriction, reseat)."""

    reason = _reason("Kept in the audit log.")


class AbortForm(ReasonForm):
    reason = _reason("Kept in the audit log; the players read it in the table's chat.")


class RestrictionForm(forms.Form):
    """A canned reason (the team's policy, whose message the member receives by email and on
    their next sign-in page), or a reason written freely (marked as free text), and a note
    for the moderators only."""

    kind = "mute"
    reason_help = (
        "Kept in the audit log; without a canned reason the member reads it too (by email "
        "and on their next sign-in page)."
    )

    preset = forms.ModelChoiceField(
        queryset=CannedReason.objects.none(),
        required=False,
        label="Canned reason",
        empty_label="— none: I write the reason below (marked as free text) —",
        help_text="The member reads its message, by email and on their next sign-in page.",
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=2000, required=False
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        required=False,
        label="Note for the moderators",
        help_text="Optional; on the member's page, never shown to them.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ModelChoiceField)
        preset.queryset = CannedReason.objects.filter(kind=self.kind, active=True)
        self.fields["reason"].help_text = self.reason_help

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("preset") is None and not (data.get("reason") or "").strip():
            raise forms.ValidationError("pick a canned reason or write one")
        return data


class BanForm(RestrictionForm):
    kind = "ban"
    reason_help = (
        "Kept in the audit log; without a canned reason the user reads it when they try to sign in."
    )


class DurationForm(RestrictionForm):
    """A mute: its reason and its duration (the suggestion for each canned reason is above,
    longer for a member muted in the last 30 days; the moderator decides)."""

    days = forms.IntegerField(min_value=0, max_value=3650, initial=0)
    hours = forms.IntegerField(min_value=0, max_value=23, initial=1)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("days") and not data.get("hours"):
            raise forms.ValidationError("give a duration of at least an hour")
        return data


class SuspendForm(DurationForm):
    kind = "suspend"
    reason_help = (
        "Kept in the audit log; without a canned reason the user reads it when they try to sign in."
    )


class ResolveForm(forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text="What was done, or why nothing was.",
    )


def _next(request: HttpRequest) -> str:
    """The page a button of a report's or a member's page came from, to go back to once the
    action is done (a local path only), or ""."""
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return back if back and safe else ""


def form_action(
    *,
    name: str,
    description: str,
    permission: str,
    form_class: type[forms.Form],
    apply: Callable[[HttpRequest, Any, dict[str, Any]], Any],
    explain: Callable[[QuerySet], dict[str, Any]] | None = None,
) -> Callable[[admin.ModelAdmin, HttpRequest, QuerySet], HttpResponse | None]:
    def action(
        modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Model]
    ) -> HttpResponse | None:
        form = form_class(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for obj in queryset:
                try:
                    apply(request, obj, form.cleaned_data)
                except ServiceError as exc:
                    modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
                except PermissionDenied as exc:
                    # The service's own check (a role's limit, a recusal): said, not a 403.
                    modeladmin.message_user(request, f"{obj}: {exc}", messages.ERROR)
                else:
                    done += 1
            if done:
                modeladmin.message_user(request, f"{description}: done for {done}.")
            back = _next(request)
            return HttpResponseRedirect(back) if back else None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": description,
            "opts": modeladmin.model._meta,
            "queryset": queryset,
            "form": form,
            "action": name,
            "checkbox_name": ACTION_CHECKBOX_NAME,
            "next": _next(request),
            **(explain(queryset) if explain else {}),
        }
        return TemplateResponse(request, "admin/moderation/action_form.html", context)

    action.__name__ = name
    # Django's own decorator sets what the admin reads: the label and the permission needed.
    return admin.action(description=description, permissions=(permission,))(action)
