from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournaments_page, name="tournaments"),
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/join/", views.tournament_join, name="tournament_join"),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        views.tournament_withdraw,
        name="tournament_withdraw",
    ),
    path("tournaments/<int:tournament_id>/start/", views.tournament_start, name="tournament_start"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/deal/<int:seats>/",
        views.deal_page,
        name="tournament_deal",
    ),
    path("tournaments/invite/<str:code>/", views.invite_page, name="tournament_invite"),
]
