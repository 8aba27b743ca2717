"""System checks of the office's logins."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.core import checks
from django.db import DatabaseError

#: The logins ``seed_demo`` creates in DEBUG, each with its name as password (``demo.logins.debug_logins_create``;
#: the demo sits above every app, so the names are repeated here, and a test keeps the two lists equal).
DEMO_USERNAMES = (
    "admin",
    "klubleder",
    "distrikt",
    "sekretariat",
    "spiller",
    "kommission",
    "tajnik",
    "igrac",
    "komisija",
)


@checks.register(checks.Tags.security, checks.Tags.database)
def demo_logins_check(app_configs, databases=None, **kwargs) -> list[checks.CheckMessage]:
    """``office.W001`` when DEBUG is off and a demo login exists: everybody can read its password in the README.

    It reads the users, so like Django's own database checks it runs only for the databases it is given:
    ``migrate`` (every deployment) and ``manage.py check [--deploy] --database default``.
    """
    if settings.DEBUG or not databases:
        return []
    found = []
    for alias in databases:
        try:
            users = get_user_model()._default_manager.using(alias).filter(username__in=DEMO_USERNAMES)
            # check_password without a setter: never upgrades a hash from inside a check.
            found += [
                (user.username, check_password(user.username, user.password)) for user in users.order_by("username")
            ]
        except DatabaseError:
            # Not migrated yet (before the first migrate) or not reachable: no users to warn about.
            continue
    if not found:
        return []
    names = ", ".join(f"{name} (still with the demo password)" if demo else name for name, demo in found)
    return [
        checks.Warning(
            f"The demo logins exist although DEBUG is off: {names}.",
            hint=(
                "They come from seed_demo on a development machine and their passwords are in the README: "
                "delete them in the admin (or with manage.py shell), or give each a strong password and "
                "check its offices."
            ),
            id="office.W001",
        )
    ]
