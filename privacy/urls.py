from django.urls import path

from . import views

urlpatterns = [
    path("", views.data_page, name="privacy_data"),
    path("export/", views.export_create, name="privacy_export"),
    path("export/<int:export_id>/<str:token>/", views.download, name="privacy_download"),
    path("delete/", views.delete_account, name="privacy_delete"),
]
