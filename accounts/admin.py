from django.contrib import admin
from django.http import HttpRequest

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "prefix", "created")
    search_fields = ("user__username", "prefix")
    readonly_fields = ("user", "key_hash", "prefix", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Tokens are issued from the profile page or `manage.py api_token`, which show it once.
        return False
