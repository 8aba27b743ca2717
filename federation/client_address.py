"""The client's address, read one way by everything that counts per client: the login lockout
(``AXES_CLIENT_IP_CALLABLE``), the per-address limits of the API and of the password-reset and login-link
requests (django-ratelimit's ``RATELIMIT_IP_META_KEY``) and the logs.

Behind ``TRUSTED_PROXY_COUNT`` proxies that each append the address they saw to ``X-Forwarded-For`` (nginx's
``$proxy_add_x_forwarded_for``), the client is that many entries from the right; entries further left are the
client's own claim, and forgeable. Without proxies, or when the header has fewer entries than proxies (a
request that did not come through them, or an entry that is no address), it is the connection's own address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """The client's address as text; the connection's own when the proxy's entry is not an address."""
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    count = settings.TRUSTED_PROXY_COUNT
    if count and len(forwarded) >= count:
        try:
            return str(ipaddress.ip_address(forwarded[-count]))
        except ValueError:
            pass
    return request.META.get("REMOTE_ADDR", "")
