"""WSGI entry point for gunicorn: ``gunicorn federation.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
application = get_wsgi_application()
