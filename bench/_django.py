"""Shared set-up for the benchmarks: Django on a throw-away test database of the configured engine."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def setup_test_database():
    """Create a fresh test database (``test_<name>``) and return a function that drops it."""
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)

    def teardown():
        connection.creation.destroy_test_db(old_name, verbosity=0)

    return teardown
