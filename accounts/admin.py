from django.contrib import admin

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "prefix", "created")
    search_fields = ("user__username", "prefix")
    readonly_fields = ("user", "key_hash", "prefix", "created")

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        # Tokens are issued from the profile page or `manage.py api_token`, which show it once.
        return False
