"""Settings for the test suite (pytest and ``.ci/run``): production settings with the slow or outward parts
swapped for fast, local ones. Everything else, including the database and broker chosen by ``DATABASE_URL``
and ``REDIS_URL``, is exactly what :mod:`config.settings` decides.
"""

import os

# A development machine's defaults (DEBUG and its per-process key) unless the caller set them.
os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: F403

# PBKDF2 at full strength is most of a persona test's time; tests never need a strong hash.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Mails stay in memory (django.core.mail.outbox), unless a test's subprocess names a real backend.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
# The per-address API limits count across tests in one process; the tests of the limit turn it on.
RATELIMIT_ENABLE = False
# The admin asks for a password only; the tests of the second factor turn ADMIN_REQUIRE_OTP on.
ADMIN_REQUIRE_OTP = False
