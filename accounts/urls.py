from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_new, name="token_new"),
    path("profile/reminders/", views.reminders_save, name="reminders_save"),
    path("profile/vacation/", views.vacation_start, name="vacation_start"),
    path("profile/vacation/end/", views.vacation_end, name="vacation_end"),
    path("", include("django.contrib.auth.urls")),
]
