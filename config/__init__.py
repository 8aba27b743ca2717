"""The project: settings, URLs, the Celery application, WSGI and ASGI entry points."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
