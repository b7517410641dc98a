from django.urls import path

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("accounts/profile/push/", views.push_prefs_save, name="push_prefs_save"),
    path("accounts/profile/digest/", views.digest_prefs_save, name="digest_prefs_save"),
    path("digest/unsubscribe/<str:token>/", views.digest_unsubscribe, name="digest_unsubscribe"),
]
