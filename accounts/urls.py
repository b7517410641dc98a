from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_new, name="token_new"),
    path("", include("django.contrib.auth.urls")),
]
