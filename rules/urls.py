from django.urls import path

from . import views

urlpatterns = [
    path("", views.rules_index, name="rules"),
    path("<slug:ruleset>/", views.rules_page, name="rules_ruleset"),
]
