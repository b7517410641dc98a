from django.urls import path

from . import views

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("players/<str:username>/relation/", views.relation_change, name="relation_change"),
    path("tables/<int:table_id>/invite/", views.table_invite, name="table_invite"),
]
