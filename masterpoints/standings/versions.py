"""The standings version of a federation: raised in the transaction of every change of its standings
(:func:`masterpoints.standings.services._bump`), read by every cached public page's key."""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction

from masterpoints.models import StandingsVersion


def standings_version(federation_id: int) -> str:
    """The federation's standings version, raised by every change of its standings, with the time of that
    change (cache keys use it; the time also tells a restored or recreated database apart)."""
    row = StandingsVersion.objects.filter(federation_id=federation_id).values_list("version", "changed_at").first()
    return f"{row[0]}-{row[1].timestamp():.6f}" if row else "0"


#: How long a federation's id (by code, or the default one) and a version read from the database are kept
#: in the cache. A standings change deletes its federation's version at once and again at commit
#: (:func:`forget_standings_version`); this bounds how long a version read in the very moment of a commit
#: could be kept after it.
VERSION_CACHE_SECONDS = 10


def _version_key(federation_id: int) -> str:
    return f"standings-version:{int(federation_id)}"


def standings_version_cached(federation_id: int) -> str:
    """:func:`standings_version` through the cache, so that a page served whole from the cache costs no
    query (:mod:`masterpoints.public.page_cache`)."""
    key = _version_key(federation_id)
    version = cache.get(key)
    if version is None:
        version = standings_version(federation_id)
        cache.add(key, version, VERSION_CACHE_SECONDS)
    return version


def forget_standings_version(federation_id: int) -> None:
    """Drop the cached version of a federation whose standings change: now (this connection sees its own
    change) and after the commit (readers in between read the old version from the database)."""
    key = _version_key(federation_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
