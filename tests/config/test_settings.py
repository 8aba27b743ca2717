"""Settings come from the environment with embedded defaults (design.md § Settings)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DATABASES['default']['ENGINE']); print(s.CELERY_TASK_ALWAYS_EAGER); print(s.CELERY_BROKER_URL)"
)
DEPLOY_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 60 + "-production-like-key-for-the-deploy-check",
    "ALLOWED_HOSTS": "masterpoints.example",
}


def run_python(code_or_args, env_overrides):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "SECRET_KEY", "DEBUG")
    }
    env.update(env_overrides)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    args = [sys.executable, "-c", code_or_args] if isinstance(code_or_args, str) else [sys.executable, *code_or_args]
    return subprocess.run(args, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_without_database_url_the_site_uses_sqlite_and_eager_celery():
    out = run_python(PROBE, {"DEBUG": "1"})
    assert out.returncode == 0, out.stderr
    engine, eager, broker = out.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert eager == "True"
    assert broker == "memory://"


def test_database_url_and_redis_url_choose_postgresql_and_a_real_broker():
    out = run_python(
        PROBE, {"DEBUG": "1", "DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "REDIS_URL": "redis://127.0.0.1:6379/3"}
    )
    assert out.returncode == 0, out.stderr
    engine, eager, broker = out.stdout.split()
    assert engine == "django.db.backends.postgresql"
    assert eager == "False"
    assert broker == "redis://127.0.0.1:6379/3"


def test_missing_secret_key_outside_debug_fails_with_a_clear_message():
    out = run_python(PROBE, {"DEBUG": "0"})
    assert out.returncode != 0
    assert "SECRET_KEY is not set" in out.stderr


def test_a_malformed_debug_value_is_refused_by_name():
    out = run_python(PROBE, {"DEBUG": "maybe"})
    assert out.returncode != 0
    assert "DEBUG must be" in out.stderr


def test_check_deploy_is_clean_with_production_like_variables():
    out = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], DEPLOY_ENV)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_without_cache_url_each_process_caches_in_memory_and_with_it_in_redis():
    probe = "import django; django.setup(); from django.conf import settings as s; print(s.CACHES['default'])"
    local = run_python(probe, {"DEBUG": "1"})
    assert local.returncode == 0, local.stderr
    assert "LocMemCache" in local.stdout
    shared = run_python(probe, {"DEBUG": "1", "CACHE_URL": "redis://cache.example:6379/1"})
    assert shared.returncode == 0, shared.stderr
    assert "RedisCache" in shared.stdout and "redis://cache.example:6379/1" in shared.stdout
    wrong = run_python(probe, {"DEBUG": "1", "CACHE_URL": "memcached://cache.example"})
    assert wrong.returncode != 0
    assert "CACHE_URL must be a redis://" in wrong.stderr


@pytest.mark.redis
def test_the_redis_cache_is_shared_between_processes():
    """Two processes with the same CACHE_URL see each other's entries (a rankings page rendered by one
    gunicorn worker is served by every other)."""
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no Redis server to cache in (.ci/run sets it)")
    url = settings.REDIS_URL.rsplit("/", 1)[0] + "/14"
    key = f"test-shared-{uuid.uuid4().hex}"
    code = "import django; django.setup(); from django.core.cache import cache; "
    wrote = run_python(code + f"cache.set({key!r}, 'rendered', 30)", {"DEBUG": "1", "CACHE_URL": url})
    assert wrote.returncode == 0, wrote.stderr
    read = run_python(code + f"print(cache.get({key!r}))", {"DEBUG": "1", "CACHE_URL": url})
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == "rendered"
