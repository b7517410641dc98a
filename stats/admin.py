from __future__ import annotations

from django.contrib import admin

from .models import GameResult, PlayerStats, Rating, RoundRecord


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "ruleset", "mu", "sigma", "games", "updated")
    list_filter = ("ruleset",)
    search_fields = ("user__username",)


@admin.register(GameResult)
class GameResultAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "user", "ruleset", "total", "place", "rated", "finished")
    list_filter = ("ruleset", "rated")
    search_fields = ("user__username",)
    raw_id_fields = ("table", "user")


@admin.register(RoundRecord)
class RoundRecordAdmin(admin.ModelAdmin):
    list_display = ("table", "round_no", "seat", "user", "score", "went_out", "buys", "mayi_melds")
    list_filter = ("ruleset", "went_out", "round_no", "by_bot")
    search_fields = ("user__username", "=table__id")
    list_select_related = ("table", "user")
    raw_id_fields = ("table", "user")


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    list_display = ("user", "ruleset", "updated")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
