"""The login-security settings follow the environment: OTP for the admin on outside DEBUG, off on a laptop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

REPO_ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "s" * 60, "ALLOWED_HOSTS": "masterpoints.example"}
PROBE = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.ADMIN_REQUIRE_OTP, s.LOGIN_FAILURE_LIMIT, s.LOGIN_IP_FAILURE_LIMIT, "
    "int(s.AXES_COOLOFF_TIME.total_seconds() // 60), s.TRUSTED_PROXY_COUNT)"
)


def probe(**variables) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "DEBUG")}
    env.update(variables, DJANGO_SETTINGS_MODULE="config.settings")
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_a_laptop_in_debug_uses_the_admin_without_otp():
    assert probe(DEBUG="1") == ["False", "5", "20", "30", "0"]


def test_production_requires_otp_for_the_admin_by_default():
    assert probe(**PRODUCTION)[0] == "True"


def test_every_login_security_value_can_be_set_from_the_environment():
    values = probe(
        **PRODUCTION,
        ADMIN_REQUIRE_OTP="0",
        LOGIN_FAILURE_LIMIT="7",
        LOGIN_IP_FAILURE_LIMIT="40",
        LOGIN_COOLOFF_MINUTES="90",
        BEHIND_TLS_PROXY="1",
    )
    assert values == ["False", "7", "40", "90", "1"]


def test_the_test_settings_leave_otp_off_unless_a_test_turns_it_on():
    assert settings.ADMIN_REQUIRE_OTP is False


def test_axes_checks_the_password_before_any_other_backend():
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"
    assert settings.MIDDLEWARE.index("django_otp.middleware.OTPMiddleware") > settings.MIDDLEWARE.index(
        "django.contrib.auth.middleware.AuthenticationMiddleware"
    )
