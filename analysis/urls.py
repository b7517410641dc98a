from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:table_id>/analysis/", views.analysis_ask, name="analysis_ask"),
]
