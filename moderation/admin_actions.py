"""Admin actions that ask for a reason (and a duration...) on a page of their own, then call
one moderation service per selected row. Each is gated by its permission through Django's
``allowed_permissions``: without it the action is neither offered nor run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.http import url_has_allowed_host_and_scheme

from games.services import ServiceError


def _reason(help_text: str) -> forms.CharField:
    return forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=2000, help_text=help_text
    )


class ReasonForm(forms.Form):
    """A reason kept in the audit log only (hide a message, lift a restriction, reseat)."""

    reason = _reason("Kept in the audit log.")


class AbortForm(ReasonForm):
    reason = _reason("Kept in the audit log; the players read it in the table's chat.")


class BanForm(ReasonForm):
    reason = _reason("Kept in the audit log; the user reads it when they try to sign in.")


class DurationForm(ReasonForm):
    """A mute's reason (the muted user is told until when, not why) and its duration."""

    days = forms.IntegerField(min_value=0, max_value=3650, initial=1)
    hours = forms.IntegerField(min_value=0, max_value=23, initial=0)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("days") and not data.get("hours"):
            raise forms.ValidationError("give a duration of at least an hour")
        return data


class SuspendForm(DurationForm):
    reason = _reason("Kept in the audit log; the user reads it when they try to sign in.")


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
        }
        return TemplateResponse(request, "admin/moderation/action_form.html", context)

    action.__name__ = name
    action.short_description = description  # type: ignore[attr-defined]
    action.allowed_permissions = (permission,)  # type: ignore[attr-defined]
    return action
