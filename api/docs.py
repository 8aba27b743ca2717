"""The API's browsable documentation as a page of the site: django-ninja's Swagger UI (its own static files,
no inline script) with a viewport for phones, the site's icon and a way back to the site."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from ninja.openapi.docs import Swagger


class SiteSwagger(Swagger):
    """Swagger UI rendered by ``templates/api/swagger.html``; its settings go out through ``json_script``."""

    template = "api/swagger.html"

    def render_page(self, request: HttpRequest, api: Any, **kwargs: Any) -> HttpResponse:
        self.settings["url"] = self.get_openapi_url(api, kwargs)
        return render(request, self.template, {"swagger_config": self.settings, "api": api})
