from django.contrib import admin
from django.urls import include, path, re_path

from mayi_site.api import api, api_not_found
from mayi_site.health import healthz, readyz
from mayi_site.metrics import metrics_view

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    re_path(r"^api/(?P<rest>.*)$", api_not_found),
    path("", include("notify.urls")),
    path("", include("social.urls")),
    path("", include("stats.urls")),
    path("", include("analysis.urls")),
    path("", include("tournaments.urls")),
    path("accounts/profile/data/", include("privacy.urls")),
    path("accounts/", include("moderation.urls")),
    path("accounts/", include("accounts.urls")),
    path("rules/", include("rules.urls")),
    path("", include("games.urls")),
]

# No page answers a bare 500 for a database that is briefly away, nor Django's 400 page for a
# body over the limit (mayi_site/middleware.py).
handler500 = "mayi_site.middleware.server_error"
handler400 = "mayi_site.middleware.bad_request"
