from django.urls import path

from masterpoints import views

app_name = "masterpoints"
urlpatterns = [
    path("calculator/", views.calculator, name="calculator"),
    path("api/calculator", views.calculator_api, name="calculator_api"),
    path("tournaments/uploads/<int:pk>/confirm/", views.upload_confirm, name="upload_confirm"),
]
