"""The admin's base for what moderators read but never edit by hand: every change is a
moderation service, run from an action or a button (moderation/admin_actions.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse


class NoHandEdits(admin.ModelAdmin):
    """Nothing is added, edited or deleted by hand: the actions are services. An object's own
    page may offer buttons (``page_actions``) and more of what the moderator needs to read
    (``page_context``), both from one read of the object."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def page_actions(self, request: HttpRequest, obj: Any) -> list[dict[str, Any]]:
        """The buttons of an object's own page (``page_actions`` in its template): none."""
        return []

    def page_context(self, request: HttpRequest, obj: Any) -> dict[str, Any]:
        """What else an object's own page shows (its template's context): nothing."""
        return {}

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        context = dict(extra_context or {})
        mine = type(self)
        acts = mine.page_actions is not NoHandEdits.page_actions
        if acts or mine.page_context is not NoHandEdits.page_context:
            obj = self.get_object(request, object_id)
            if acts:
                context["page_actions"] = self.page_actions(request, obj)
            context.update(self.page_context(request, obj))
        return super().change_view(request, object_id, form_url, context)


class ReadOnly(NoHandEdits):
    """The moderation's lists of what the services made, titled as read."""

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # Django titles every list "Select report to change", and these are read, not edited.
        title = str(self.model._meta.verbose_name_plural)
        context = {"title": title[:1].upper() + title[1:], **(extra_context or {})}
        return super().changelist_view(request, context)
