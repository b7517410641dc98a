from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Move, Reminder, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "position",
        "user",
        "is_bot",
        "missed_turns",
        "expelled",
        "clock_bank",
        "buy_order",
        "buy_order_limit",
    )
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "public", "host", "version", "move_count", "created")
    list_filter = ("status", "ruleset", "public", "created")
    search_fields = ("=id", "host__username", "invite_code", "seats__user__username")
    readonly_fields = ("version", "move_count", "state", "created", "updated")
    raw_id_fields = ("host",)
    date_hierarchy = "created"
    inlines = [SeatInline]

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Table], search_term: str
    ) -> tuple[QuerySet[Table], bool]:
        queryset, _ = super().get_search_results(request, queryset, search_term)
        # The seats join can repeat a table; say so, so the admin de-duplicates.
        return queryset, True


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "user", "is_bot", "missed_turns", "expelled")
    list_filter = ("is_bot", "expelled", "table__status")
    search_fields = ("user__username", "=table__id")
    raw_id_fields = ("table", "user")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """Read-only: the move log is append-only."""

    list_display = ("table", "seq", "seat", "action_type", "by_bot", "created")
    list_filter = ("by_bot", "created")
    search_fields = ("=table__id",)
    list_select_related = ("table",)
    readonly_fields = ("table", "seq", "seat", "by_bot", "action", "events", "created")

    @admin.display(description="action")
    def action_type(self, obj: Move) -> str:
        return str(obj.action.get("type", ""))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Reminder)
class ReminderAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "user", "kind", "turn_seq", "status", "due", "sent", "note")
    list_filter = ("status", "kind")
    search_fields = ("=table__id", "user__username")
    raw_id_fields = ("table", "user")
