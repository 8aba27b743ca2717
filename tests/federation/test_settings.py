"""Settings come from the environment with embedded defaults (issue 2, design.md § Settings)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG")}
    env.update(env_overrides)
    env["DJANGO_SETTINGS_MODULE"] = "federation.settings"
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
