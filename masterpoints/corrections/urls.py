from django.urls import path

from masterpoints.corrections import views as correction_views

app_name = "corrections"
urlpatterns = [
    path("", correction_views.correction_list, name="list"),
    path("new/", correction_views.correction_new, name="new"),
    path("<int:pk>/", correction_views.correction_detail, name="detail"),
    path("<int:pk>/document/", correction_views.correction_document, name="document"),
]
