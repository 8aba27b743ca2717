"""The system check that warns when the demo's well-known logins exist on a site that is not in DEBUG."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from demo.logins import debug_logins_create
from office.checks import DEMO_USERNAMES, demo_logins_check

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def demo_logins(world):
    debug_logins_create(world.dbf, world.hbs)


def warnings_of(**kwargs):
    return [message for message in demo_logins_check(None, databases=["default"], **kwargs)]


def test_the_check_knows_every_login_the_demo_creates(demo_logins):
    created = set(get_user_model().objects.values_list("username", flat=True))
    assert created == set(DEMO_USERNAMES)


def test_outside_debug_the_demo_logins_are_a_warning_naming_each(demo_logins, settings):
    settings.DEBUG = False
    [warning] = warnings_of()
    assert warning.id == "office.W001"
    for username in DEMO_USERNAMES:
        assert username in warning.msg
    assert "demo password" in warning.msg
    assert "delete" in warning.hint


def test_a_demo_name_with_a_new_password_is_still_named_but_not_as_a_demo_password(demo_logins, settings):
    settings.DEBUG = False
    for user in get_user_model().objects.all():
        user.set_password("a-long-new-secret-" + user.username)
        user.save()
    [warning] = warnings_of()
    assert "admin" in warning.msg
    assert "demo password" not in warning.msg


def test_in_debug_the_demo_logins_are_expected(demo_logins, settings):
    settings.DEBUG = True
    assert warnings_of() == []


def test_without_demo_logins_there_is_nothing_to_say(db, settings, django_user_model):
    settings.DEBUG = False
    django_user_model.objects.create_user("karen", password="her-own-secret")
    assert warnings_of() == []


def test_the_check_reads_the_database_only_when_asked_to(demo_logins, settings):
    """Checks that read the database run with ``--database`` (and in ``migrate``), so ``check`` itself works
    where no database is reachable."""
    settings.DEBUG = False
    assert demo_logins_check(None, databases=None) == []


def test_check_deploy_with_the_database_shows_the_warning(demo_logins, settings):
    settings.DEBUG = False
    out = StringIO()
    call_command("check", "--deploy", "--database", "default", stdout=out, stderr=out)
    assert "office.W001" in out.getvalue()
    with pytest.raises(SystemCheckError, match=r"office\.W001"):
        call_command("check", "--database", "default", "--fail-level", "WARNING", stdout=out, stderr=out)


SEED_LOGINS = """
from clubs.models import Club
from demo.logins import debug_logins_create
from federation.models import Federation, Region

dbf = Federation.objects.create(name="DBf", code="dbf", scheme="dbf")
hbs = Federation.objects.create(name="HBS", code="hbs", scheme="hbs")
Region.objects.create(federation=dbf, code="fyn", name="Distrikt Fyn", kind="district")
Club.objects.create(federation=dbf, number="1001", name="Bridgeklubben A")
debug_logins_create(dbf, hbs)
"""


def test_migrate_shows_the_warning_outside_debug(tmp_path):
    """``migrate`` (every deployment runs it) runs the database checks: the warning is printed there."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "DEBUG")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", SQLITE_PATH=str(tmp_path / "db.sqlite3"))

    def manage(*args, debug):
        command = [sys.executable, "manage.py", *args]
        extra = {"DEBUG": "1"} if debug else {"DEBUG": "0", "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "x.example"}
        return subprocess.run(command, cwd=REPO_ROOT, env={**env, **extra}, capture_output=True, text=True, timeout=300)

    seeded = manage("migrate", "--noinput", debug=True)
    assert seeded.returncode == 0, seeded.stderr
    seeded = manage("shell", "-c", SEED_LOGINS, debug=True)
    assert seeded.returncode == 0, seeded.stderr
    production = manage("migrate", "--noinput", debug=False)
    assert production.returncode == 0, production.stderr
    assert "office.W001" in production.stdout + production.stderr


# --- issue 33, hole 3: outside DEBUG a demo login with the demo password does not sign in ----------------------


@pytest.mark.parametrize("login_page", ["login", "admin:login"])
def test_outside_debug_a_demo_login_with_the_demo_password_is_refused_saying_what_to_do(
    client, demo_logins, settings, login_page
):
    from django.urls import reverse

    settings.DEBUG = False
    for username in ("admin", "sekretariat", "klubleder"):
        response = client.post(reverse(login_page), {"username": username, "password": username})
        assert response.status_code == 200, "the login page again, not a signed-in redirect"
        page = response.content.decode()
        assert "still has the demo password" in page and f"manage.py changepassword {username}" in page
        assert "_auth_user_id" not in client.session


def test_outside_debug_a_demo_name_with_a_new_password_signs_in(client, demo_logins, settings):
    from django.urls import reverse

    settings.DEBUG = False
    user = get_user_model().objects.get(username="klubleder")
    user.set_password("a-strong-new-password-9")
    user.save()
    response = client.post(reverse("login"), {"username": "klubleder", "password": "a-strong-new-password-9"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)


def test_in_debug_the_demo_logins_sign_in_with_their_names(client, demo_logins, settings):
    from django.urls import reverse

    settings.DEBUG = True
    assert client.post(reverse("login"), {"username": "klubleder", "password": "klubleder"}).status_code == 302
