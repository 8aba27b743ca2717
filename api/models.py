"""What the API keeps: the answer to each write call, by its token and idempotency key."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from office.models import ApiToken


class IdempotentCall(models.Model):
    """The first answer to a write call with one token and one ``Idempotency-Key``.

    A retry with the same key and the same request gets this answer again and changes nothing; the same key
    with another request is refused (``request_digest`` tells them apart). The unique constraint leaves one
    row, so one write, when two retries race. Only calls that wrote are kept: a refused call wrote nothing,
    and may be sent again with the same key.
    """

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="calls")
    key = models.CharField(_("idempotency key"), max_length=100)
    #: SHA-256 of the method, the path and the body (for a file: its name and SHA-256).
    request_digest = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("idempotent API call")
        verbose_name_plural = _("idempotent API calls")
        constraints = [models.UniqueConstraint(fields=["token", "key"], name="api_call_once_per_token_and_key")]

    def __str__(self) -> str:
        return f"{self.token.prefix}… {self.key}"
