from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.player_page, name="player_stats"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("accounts/profile/privacy/", views.privacy_save, name="stats_privacy"),
    path("tables/<int:table_id>/replay/", views.replay_page, name="table_replay"),
]
