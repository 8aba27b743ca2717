from django.urls import path

from office import views

app_name = "office"
urlpatterns = [
    path("", views.office, name="home"),
    path("api-tokens/", views.api_tokens, name="api_tokens"),
    path("api-tokens/<int:pk>/revoke/", views.api_token_revoke_view, name="api_token_revoke"),
    path("second-factor/", views.second_factor, name="second_factor"),
    path("second-factor/qr.svg", views.second_factor_qr, name="second_factor_qr"),
]
