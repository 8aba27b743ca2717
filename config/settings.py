"""Settings for the masterpoint office, driven by environment variables.

Embedded defaults make a laptop work with nothing installed but Python: SQLite in the project folder and
Celery running tasks eagerly in-process. Production sets ``DATABASE_URL`` (PostgreSQL), ``REDIS_URL``
(Celery broker and results), ``CACHE_URL`` (the shared cache), ``SECRET_KEY``, ``ALLOWED_HOSTS`` and the
e-mail variables; see README.md.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off, not {value!r}")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Outside DEBUG the site refuses to start without it: set SECRET_KEY to a "
            "long random value (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or set DEBUG=1 "
            "on a development machine."
        )
    # Development only (DEBUG=1): a per-process random key; sessions do not survive a restart.
    import secrets

    SECRET_KEY = "dev-" + secrets.token_urlsafe(50)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # The rule books: each registers with the scheme registry (federation.schemes) from its ready(). They
    # come first, so that no other app's ready() (the admin's autodiscovery) finds the registry empty; the
    # first is the default of pages shown before any federation exists.
    "rulebooks.dbf",
    "rulebooks.hbs",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "csp",
    # django-ninja's templates and static files: the API's documentation served from the site, no CDN.
    "ninja",
    "django_htmx",
    "federation",
    "clubs",
    "office",
    "tournaments",
    "masterpoints",
    "api",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # MAINTENANCE_FILE present: 503 and a page (a JSON error under /api/), before the session, user or database.
    "federation.maintenance.MaintenanceMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # user.is_verified(): signed in with a second factor in this session (the admin asks, see ADMIN_REQUIRE_OTP).
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # request.htmx: the upload's table of players to resolve answers its htmx requests with a part of the page.
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out login attempt into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database: SQLite by default, PostgreSQL (psycopg 3) when DATABASE_URL is set -------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")), conn_health_checks=True
        )
    }
    # Parameters bound by the server, and a statement run DB_PREPARE_AFTER times on one connection prepared
    # (psycopg's prepare_threshold): the busy pages' joins are then planned once per connection, not for every
    # reader (planning a busy page's joins is a large part of its database time). 0 prepares nothing
    # (behind a pooler that cannot keep prepared statements: PgBouncer before 1.21 in transaction mode).
    prepare_after = min(max(int(os.environ.get("DB_PREPARE_AFTER", "5")), 0), 1000)
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": True,
        "prepare_threshold": prepare_after or None,
        # A database host that drops packets fails a request (and /health/) after 5 s, not after TCP's minutes.
        "connect_timeout": min(max(int(os.environ.get("DB_CONNECT_TIMEOUT", "5")), 1), 60),
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Waiting on a lock beats failing at once when a worker and the site write together.
            "OPTIONS": {"timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- authentication -------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "federation:home"
LOGOUT_REDIRECT_URL = "federation:home"
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out username and address before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    # Outside DEBUG: a demo login whose password is still the README's is refused, saying what to do.
    "office.backends.DemoPasswordRefusal",
    "django.contrib.auth.backends.ModelBackend",
]

# --- login security: lockout after wrong passwords (django-axes), a second factor for the admin (django-otp) --
#: Wrong passwords for one username from one address that lock that pair out for the cool-off. The owner still
#: logs in from anywhere else, so nobody locks the secretariat out by failing with its username from elsewhere.
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
#: Wrong passwords from one address, over all usernames, that lock the address out for everyone: the looser
#: limit against guessing a few passwords for each of many usernames. A club's members share the club's address.
LOGIN_IP_FAILURE_LIMIT = int(os.environ.get("LOGIN_IP_FAILURE_LIMIT", "20"))
#: Proxies in front of the site that each append the address they saw to X-Forwarded-For (nginx's
#: $proxy_add_x_forwarded_for); 0: the connection's own address is the client's.
TRUSTED_PROXY_COUNT = int(
    os.environ.get("TRUSTED_PROXY_COUNT", "1" if env_bool("BEHIND_TLS_PROXY", default=False) else "0")
)


def login_lockout_parameters(request_or_attempt, credentials=None) -> list:
    """``AXES_LOCKOUT_PARAMETERS``: what a login failure is counted against. Normally the pair of username and
    address (locked at LOGIN_FAILURE_LIMIT); once the address has failed LOGIN_IP_FAILURE_LIMIT times within the
    cool-off, over all usernames, the address alone (locked for everyone, as it is far above that limit)."""
    # Imported here: the settings are read before the apps are ready.
    from axes.models import AccessAttempt
    from django.conf import settings
    from django.db.models import Sum
    from django.utils import timezone

    address = getattr(request_or_attempt, "axes_ip_address", None) or getattr(request_or_attempt, "ip_address", None)
    since = getattr(request_or_attempt, "axes_attempt_time", None) or timezone.now()
    failures = AccessAttempt.objects.filter(
        ip_address=address, attempt_time__gte=since - settings.AXES_COOLOFF_TIME
    ).aggregate(total=Sum("failures_since_start"))["total"]
    if (failures or 0) >= settings.LOGIN_IP_FAILURE_LIMIT:
        return ["ip_address"]
    return [["username", "ip_address"]]


AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_LOCKOUT_PARAMETERS = login_lockout_parameters
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "30")))
AXES_CLIENT_IP_CALLABLE = "federation.client_address.client_address"
#: Every per-client limit counts the same client address as the lockout (behind the proxies, not the proxy).
RATELIMIT_IP_META_KEY = "federation.client_address.client_address"
#: While the cache (Redis) is away the limits are not counted rather than refusing every request; the cache
#: backend logs the outage once (config.cache).
RATELIMIT_FAIL_OPEN = True
# A wrong password during a lockout is refused unchecked and not counted: the cool-off is not prolonged, and
# someone retrying a locked username does not use up the address's limit for the others behind it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A right password clears that username's failures from that address (never the address's other ones).
AXES_RESET_ON_SUCCESS = True
# No log of every successful login (an ever-growing list of addresses); failures are kept for the cool-off only.
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
#: The admin asks for a second factor: django-otp's OTPAdminSite, a TOTP token from an enrolled device
#: (config/urls.py). On outside DEBUG; a laptop's demo admin/admin logs in with its password alone.
ADMIN_REQUIRE_OTP = env_bool("ADMIN_REQUIRE_OTP", default=not DEBUG)
#: The name authenticator apps show beside the code.
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER", "Masterpoint office")

# --- languages and time ---------------------------------------------------------------------------
LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "en")
LANGUAGES = [("en", _("English")), ("da", _("Danish")), ("hr", _("Croatian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: English dates in ISO order (config/formats/en, never the US order); Danish and Croatian keep Django's conventions.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Copenhagen")

# --- static and uploaded files ---------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
#: Result files are at most 5 MB (the largest real file seen is under 300 KB); larger requests are refused.
RESULTS_UPLOAD_MAX_BYTES = 5 * 1024 * 1024
#: Result files one organiser (club, region, federation) may upload an hour, and their megabytes together
#: (masterpoints.uploads.quota); the server's import_results is not counted.
RESULTS_UPLOAD_QUOTA_FILES = min(max(int(os.environ.get("RESULTS_UPLOAD_QUOTA_FILES", "20")), 1), 1000)
RESULTS_UPLOAD_QUOTA_BYTES = min(max(int(os.environ.get("RESULTS_UPLOAD_QUOTA_MB", "25")), 5), 1000) * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = RESULTS_UPLOAD_MAX_BYTES + 512 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = RESULTS_UPLOAD_MAX_BYTES + 512 * 1024

# --- operations: maintenance mode and /health/ (federation.maintenance, federation.health) --------------
#: While this file exists the site answers 503 with a maintenance page (a JSON error under /api/); create it
#: before a migration and remove it after, no restart needed. Empty: never in maintenance.
MAINTENANCE_FILE = os.environ.get("MAINTENANCE_FILE", str(BASE_DIR / "maintenance.on"))
#: The Retry-After of the maintenance answers, in seconds.
MAINTENANCE_RETRY_AFTER = min(max(int(os.environ.get("MAINTENANCE_RETRY_AFTER", "600")), 60), 86400)
#: A load balancer asks for /health/ over plain HTTP behind the TLS proxy: not redirected to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]

# --- e-mail ---------------------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
# Seconds a mail server may take per step. Only the outbox's drain talks to it, in a worker (a request writes
# its mails to the outbox and never waits for SMTP), so this may be generous.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "masterpoints@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: The site's address as players reach it: the start of the links in mails a job writes (no request to ask).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# --- Cache: per process without CACHE_URL, shared in Redis with it ----------------------------------------


def cache_settings(url: str) -> dict:
    """``CACHES`` for ``CACHE_URL``. Empty: each process keeps its own cache in memory (a laptop). A
    ``redis://`` address: Django's Redis cache, shared by every worker, so a rankings page is rendered once
    per standings change for the whole site instead of once per worker process."""
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "masterpoints"}}
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {
            "default": {
                "BACKEND": "config.cache.SharedRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": "masterpoints",
                # A Redis that hangs costs a second, then the cache answers misses for a while (config.cache).
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            }
        }
    raise ImproperlyConfigured(f"CACHE_URL must be a redis://, rediss:// or unix:// address, not {url!r}")


CACHES = cache_settings(os.environ.get("CACHE_URL", ""))
#: How long a reverse proxy or CDN may serve an anonymous rankings or player page without asking again
#: (``Cache-Control: s-maxage``; browsers always ask and get 304 while the standings are unchanged). 0 to
#: 3600 seconds; 0: a proxy asks every time too.
PUBLIC_PROXY_SECONDS = min(max(int(os.environ.get("PUBLIC_PROXY_SECONDS", "30")), 0), 3600)


def checkout_release(base: Path) -> str:
    """The commit the code was checked out at (``.git``'s HEAD, read without running git), or ``""``."""
    git = base / ".git"
    try:
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head
        ref = head.removeprefix("ref: ")
        if (git / ref).is_file():
            return (git / ref).read_text().strip()
        packed = (git / "packed-refs").read_text().splitlines() if (git / "packed-refs").is_file() else []
        return next((line.split()[0] for line in packed if line.endswith(" " + ref)), "")
    except OSError:
        return ""


#: The release being served: part of every kept page's key, so that a deploy never serves the pages the
#: release before rendered. Set RELEASE (a version or commit) where the code is not a git checkout.
RELEASE = (os.environ.get("RELEASE") or checkout_release(BASE_DIR) or "unreleased")[:64]

# --- Celery: eager in-process without REDIS_URL, a real Redis broker with it ------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_EXPIRES = 24 * 60 * 60
CELERY_TIMEZONE = TIME_ZONE
# Publishing never holds a request for more than about a second. A request only asks for an outbox drain after
# its commit (federation.outbox); when that fails, the entry waits in the outbox for the periodic drain. So: a
# one-second connect and socket timeout, one quick reconnection attempt, and a short retry of the publish
# itself; and the result store (the same Redis), whose default retries take 20 s, fails as fast.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "socket_timeout": 1,
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
    # An unacknowledged task (acks_late: its worker was killed) is delivered again after an hour; the
    # standings-freshness job below does not wait that long for the standings.
    "visibility_timeout": 60 * 60,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
}
#: Periodic jobs; each later feature adds its entry here (nightly standings, monthly title e-mails).
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "worker-heartbeat": {"task": "federation.tasks.ping", "schedule": crontab(minute="*/15")},
    # Every standing and season figure rebuilt from the ledger at night: the safety net under the incremental
    # updates after each upload.
    "standings-nightly-rebuild": {
        "task": "masterpoints.standings.tasks.standings_rebuild_all",
        "schedule": crontab(hour=3, minute=15),
    },
    # The ranking list's figures that change as the day turns (an award moving into an older period, D-Q59).
    "standings-ranking-roll": {
        "task": "masterpoints.standings.tasks.standings_ranking_roll_all",
        "schedule": crontab(hour=0, minute=5),
    },
    # The monthly title e-mail to the clubs (§ 451B: each month from September to April).
    "title-mail-monthly": {
        "task": "masterpoints.title_mail.tasks.title_mail_monthly",
        "schedule": crontab(hour=7, minute=0, day_of_month=1, month_of_year="9-12,1-4"),
    },
    # The players' monthly statements of the month just ended, on the month's first seven days: each
    # run writes only the statements no earlier run wrote (one per player and month).
    "notices-monthly-statement": {
        "task": "masterpoints.notices.tasks.monthly_statements",
        "schedule": crontab(hour=7, minute=30, day_of_month="1-7"),
    },
    # The outbox's e-mails and tasks that no drain after commit sent (broker or SMTP away, a worker killed).
    # A run not started within 50 s is dropped: the next one comes a minute later.
    "outbox-drain": {
        "task": "federation.tasks.outbox_drain",
        "schedule": crontab(minute="*"),
        "options": {"expires": 50},
    },
    # Points held for provisional players credited once a member with their number joined the register.
    "provisional-players-join": {
        "task": "masterpoints.office_queue.tasks.provisional_players_join",
        "schedule": crontab(minute="*"),
        "options": {"expires": 50},
    },
    # An upload refused for want of a rule set is computed again, and its director told, once one is added.
    "uploads-ruleset-answered": {
        "task": "masterpoints.uploads.tasks.uploads_ruleset_answered",
        "schedule": crontab(minute="*"),
        "options": {"expires": 50},
    },
    # Every federation's stored places derived again when older than its standings or today (at most a
    # minute behind the points: masterpoints.standings.places).
    "standings-places": {
        "task": "masterpoints.standings.tasks.standings_places_due",
        "schedule": crontab(minute="*"),
        "options": {"expires": 50},
    },
    # Players whose standing is older than their ledger (an update lost with a killed worker): queued again.
    "standings-freshness": {
        "task": "masterpoints.standings.tasks.standings_freshness",
        "schedule": crontab(minute="*"),
        "options": {"expires": 50},
    },
}

# --- security: strict outside DEBUG (python manage.py check --deploy is clean) ---------------------
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", default=False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_TLS_PROXY else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
# Joining the browsers' HSTS preload list binds every subdomain of the federation's domain for good: that is
# the domain owner's decision (SECURE_HSTS_PRELOAD=1), not a default, so its deploy warning is silenced.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Content-Security-Policy (django-csp 4): the site's own scripts, styles, images and fonts only; nothing inline
# (no template has an inline script, style or on…= handler: tests/config/test_csp.py keeps it so).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    },
}

# --- the office's own choices (no rule book fixes them) ------------------------------------------------
#: The title e-mail lists members with at least this percentage of every amount their next rung needs.
TITLE_MAIL_CLOSE_PERCENT = int(os.environ.get("TITLE_MAIL_CLOSE_PERCENT", "90"))
#: A correction request's document is at most this large.
CORRECTION_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024

# --- tables ---------------------------------------------------------------------------------------
DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
