from django.urls import path

from tournaments.sanctions import views as sanction_views

app_name = "sanctions"
urlpatterns = [
    path("", sanction_views.application_list, name="list"),
    path("apply/", sanction_views.application_new, name="apply"),
    path("<int:pk>/", sanction_views.application_detail, name="detail"),
    path("<int:pk>/recommend/", sanction_views.application_recommend, name="recommend"),
    path("<int:pk>/decide/", sanction_views.application_decide, name="decide"),
]
