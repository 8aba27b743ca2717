"""An authentication backend that refuses the demo logins' published passwords outside DEBUG."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from office.checks import DEMO_USERNAMES


class DemoPasswordRefusal:
    """Outside DEBUG, a demo login (``office.checks.DEMO_USERNAMES``) whose password is still its name (the
    README publishes it) is refused with a message that says what to do, on every login form (the site's, the
    admin's with or without its second factor): the ``ValidationError`` it raises is shown by the form, as
    Django's ``AuthenticationForm.clean`` calls ``authenticate``. Any other login, or a demo name with a new
    password, is left to the next backend. The warning ``office.W001`` names such logins at deploy time.

    It has no ``get_user``: it never signs anybody in, so no session names it as the backend of its user."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if settings.DEBUG or username not in DEMO_USERNAMES or password != username:
            return None
        user = get_user_model()._default_manager.filter(username=username).first()
        if user is None or not user.check_password(password):
            return None
        raise ValidationError(
            _(
                "The login %(username)s still has the demo password published in the README, and this site "
                "does not run in DEBUG, so it cannot sign in. An administrator gives it a strong password "
                "(manage.py changepassword %(username)s) or deletes it."
            ),
            code="demo_password",
            params={"username": username},
        )
