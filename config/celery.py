"""The Celery application: ``celery -A config worker`` and ``celery -A config beat``.

Configuration comes from Django settings (``CELERY_*``); tasks are discovered in each app's ``tasks.py``.
Without ``REDIS_URL`` the settings make every task run eagerly in the calling process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
