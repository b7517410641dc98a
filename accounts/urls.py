from django.contrib.auth import views as auth_views
from django.urls import include, path

from mayi_site.ratelimits import ratelimited

from . import views
from .forms import SignInForm
from .mail import BackgroundPasswordResetForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before django.contrib.auth.urls (first match wins): the same views, rate limited per
    # address (password spraying across accounts), the reset email sent outside the request.
    path(
        "login/",
        ratelimited("login_ip", by="ip")(
            auth_views.LoginView.as_view(authentication_form=SignInForm)
        ),
        name="login",
    ),
    path(
        "password_reset/",
        ratelimited("password_reset_ip", by="ip")(
            auth_views.PasswordResetView.as_view(form_class=BackgroundPasswordResetForm)
        ),
        name="password_reset",
    ),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_new, name="token_new"),
    path("profile/reminders/", views.reminders_save, name="reminders_save"),
    path("profile/email/", views.email_save, name="email_save"),
    path("", include("django.contrib.auth.urls")),
]
