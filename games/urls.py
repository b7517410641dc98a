from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby_lists, name="lobby_lists"),
    path("play/", views.play_now, name="play_now"),
    path("tables/new/", views.table_create, name="table_create"),
    path("tables/join/", views.join_by_invite, name="join_by_invite"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/join/", views.table_join, name="table_join"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="table_leave"),
    path("tables/<int:table_id>/bots/", views.table_bots, name="table_bots"),
    path("tables/<int:table_id>/start/", views.table_start, name="table_start"),
    path("tables/<int:table_id>/orders/", views.table_buy_order, name="table_buy_order"),
    path("join/<str:code>/", views.invite_page, name="invite"),
    # The profile page's forms for the clocks (the page is accounts'; the clocks are games').
    path("accounts/profile/vacation/", views.vacation_start, name="vacation_start"),
    path("accounts/profile/vacation/end/", views.vacation_end, name="vacation_end"),
    path("accounts/profile/sleep/", views.sleep_save, name="sleep_save"),
]
