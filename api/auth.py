"""The upload API's authentication: ``Authorization: Bearer <token>`` with a club's or region's API token.

Only the header is read, never a cookie: a browser's session cannot make these calls, so no page of another
site can make them in a signed-in officer's name (nothing for CSRF to forge). A token is refused when unknown
or revoked; each call counts against the token's rate (``api.limits``) and records its last use.
"""

from __future__ import annotations

import logging

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from api.errors import ApiError
from api.limits import check_token_rate
from federation.client_address import client_address
from office.access import token_maker_may_act
from office.models import ApiToken
from office.selectors import token_by_secret
from office.services import api_token_used

log = logging.getLogger(__name__)


class TokenAuth(HttpBearer):
    """The token of the ``Authorization`` header, as ``request.auth``; refusals are 401 with a code."""

    def authenticate(self, request, token: str) -> ApiToken:
        found = token_by_secret(token.strip())
        if found is None:
            log.warning("API call with an unknown token from %s", client_address(request))
            raise ApiError(401, "TOKEN_INVALID", _("This token is not known: check it on the office's API page."))
        if found.revoked_at is not None:
            log.warning("API call with the revoked token %s…", found.prefix)
            when = date_format(found.revoked_at, "SHORT_DATETIME_FORMAT")
            raise ApiError(
                401,
                "TOKEN_REVOKED",
                _("This token was revoked on %(when)s: make a new one on the office's API page.") % {"when": when},
                params={"prefix": found.prefix},
            )
        if not token_maker_may_act(found):
            log.warning("API call with the token %s… of %s, who no longer acts for it", found.prefix, found.created_by)
            raise ApiError(
                403,
                "TOKEN_MAKER_ENDED",
                _(
                    "This token was made by %(maker)s, who no longer acts for %(organiser)s: an officer who does "
                    "makes a new one on the office's API page."
                )
                % {"maker": found.created_by.get_username(), "organiser": found.organiser},
                params={"prefix": found.prefix},
            )
        check_token_rate(request, found)
        api_token_used(token=found)
        return found
