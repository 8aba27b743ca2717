from django.urls import path

from office import views

app_name = "office"
urlpatterns = [
    path("", views.office, name="home"),
    path("second-factor/", views.second_factor, name="second_factor"),
    path("second-factor/qr.svg", views.second_factor_qr, name="second_factor_qr"),
]
