"""The standings version of a federation: raised in the transaction of every change of its standings
(:func:`masterpoints.standings.services._bump`), read by every cached public page.

Pages name their federation by a *handle*: ``id:<pk>`` (the rankings' ``?federation=``), ``code:<code>`` (a
player's address) or ``default`` (the rankings without one: the first federation by name). The version is
kept in the cache under each handle, so that a page served whole from the cache costs no query.
"""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.db import transaction

from federation.models import Federation
from masterpoints.models import StandingsVersion

#: How long a version is kept in the cache. A standings change sets the new version at its commit
#: (:func:`forget_standings_version`), so a kept version is never older than the last commit but in two
#: cases this bounds: two changes of one federation committing so close together that the earlier one's
#: process sets its version after the later one's, and a new federation that becomes the default.
VERSION_CACHE_SECONDS = 60
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)
#: The longest federation code a handle may carry (``Federation.code``'s own bound).
FEDERATION_CODE_LENGTH = Federation._meta.get_field("code").max_length


def standings_version(federation_id: int) -> str:
    """The federation's standings version, raised by every change of its standings, with the time of that
    change (cache keys use it; the time also tells a restored or recreated database apart)."""
    row = StandingsVersion.objects.filter(federation_id=federation_id).values_list("version", "changed_at").first()
    return f"{row[0]}-{(row[1] - _EPOCH) // _MICROSECOND}" if row else "0"


def _kept(federation_id: int) -> str:
    """The version as kept under a handle: the federation's id and its version (a handle's federation may
    change: ``default`` after a new federation)."""
    return f"{federation_id}/{standings_version(federation_id)}"


def federation_in(version: str) -> int:
    """The federation id of a version :func:`standings_version_cached` gave."""
    return int(version.split("/", 1)[0])


def version_key(handle: str) -> str:
    return f"standings-version:{handle}"


def _federation_of(handle: str) -> int | None:
    """The id of the federation a handle names; ``None``: none (an unknown id or code, no federation)."""
    kind, _sep, value = handle.partition(":")
    federations = Federation.objects.order_by("name")
    if kind == "id" and value.isdecimal():
        federations = federations.filter(pk=int(value))
    elif kind == "code" and 0 < len(value) <= FEDERATION_CODE_LENGTH:
        federations = federations.filter(code=value)
    elif handle != "default":
        return None
    return federations.values_list("pk", flat=True).first()


def version_read(handle: str) -> str | None:
    """The version of the federation ``handle`` names, read from the database and kept in the cache unless
    one is kept already (a reader never overwrites what a commit set); ``None``: no such federation."""
    federation_id = _federation_of(handle)
    if federation_id is None:
        return None
    version = _kept(federation_id)
    cache.add(version_key(handle), version, VERSION_CACHE_SECONDS)
    return version


def standings_version_cached(handle: str) -> str | None:
    """The version of the federation ``handle`` names (the federation's id and its version), through the
    cache; ``None``: no such federation."""
    return cache.get(version_key(handle)) or version_read(handle)


def forget_standings_version(federation: Federation) -> None:
    """Called by the change that raises the version, in its transaction: the kept versions go now (this
    connection then reads its own, new one), and the new one is set under each of the federation's handles
    when the change commits (until then, readers elsewhere rightly keep reading the old one)."""
    handles = [f"id:{federation.pk}", f"code:{federation.code}"]
    if _federation_of("default") == federation.pk:
        handles.append("default")
    keys = [version_key(handle) for handle in handles]
    cache.delete_many(keys)
    version = _kept(federation.pk)
    transaction.on_commit(lambda: cache.set_many(dict.fromkeys(keys, version), VERSION_CACHE_SECONDS))
