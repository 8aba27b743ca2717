"""The site's URLs plus ``/bench/trivial``: a view that only answers "ok" through the full middleware stack."""

from django.http import HttpResponse
from django.urls import include, path


def trivial(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/trivial", trivial), path("", include("config.urls"))]
