"""The HBS secretariat's transition tools (transition rules 1, 3, 4 and 8)."""

from django.urls import path

from masterpoints.transition import views

app_name = "transition"
urlpatterns = [path("office/transition/", views.transition_page, name="page")]
