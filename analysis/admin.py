from __future__ import annotations

from django.contrib import admin

from .models import Decision, GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = (
        "table",
        "status",
        "version",
        "complete",
        "decisions_total",
        "cpu_seconds",
        "ended",
        "queued",
        "finished",
    )
    list_filter = ("status", "complete", "version")
    raw_id_fields = ("table", "requested_by")


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ("analysis", "seq", "seat", "user", "kind", "label", "cost", "samples")
    list_filter = ("label", "kind", "ruleset")
    search_fields = ("user__username",)
    raw_id_fields = ("analysis", "user")
