"""A register file kept by its SHA-256 between its check and its import: the import runs the
very bytes the dry run checked, not a second upload. Kept in the site's file storage under the federation,
``register-checks/<federation id>/<sha256>``; a file is only ever written once under its hash."""

from __future__ import annotations

import hashlib
import re

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.translation import gettext as _

from federation.models import Federation

SHA256 = re.compile(r"[0-9a-f]{64}")


def _name(federation: Federation, sha: str) -> str:
    return f"register-checks/{federation.pk}/{sha}"


def register_file_keep(*, federation: Federation, data: bytes) -> str:
    """Keep ``data`` under its SHA-256 (once: the same bytes checked again are the same file); returns the hash."""
    sha = hashlib.sha256(data).hexdigest()
    name = _name(federation, sha)
    if not default_storage.exists(name):
        default_storage.save(name, ContentFile(data))
    return sha


def register_file_kept(*, federation: Federation, sha: str) -> bytes:
    """The bytes checked under ``sha`` for ``federation``; refused when there are none (or they changed)."""
    name = _name(federation, sha) if SHA256.fullmatch(sha or "") else ""
    if not name or not default_storage.exists(name):
        raise ValidationError(_("The checked file is no longer kept: check the file again."), code="NOT_KEPT")
    with default_storage.open(name, "rb") as kept:
        data = kept.read()
    if hashlib.sha256(data).hexdigest() != sha:
        raise ValidationError(_("The checked file is no longer kept: check the file again."), code="NOT_KEPT")
    return data
