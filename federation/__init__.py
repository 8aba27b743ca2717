"""The federation project package and the app for the federation's own records."""

from federation.celery import app as celery_app

__all__ = ["celery_app"]
