from django.urls import path

from . import views

urlpatterns = [
    path("2fa/", views.otp_setup, name="otp_setup"),
    path("appeal/", views.appeal_post, name="appeal_post"),
]
