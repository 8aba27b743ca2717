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


#: How long a version is kept in the cache. A standings change sets the new version at its commit
#: (:func:`forget_standings_version`), so a kept version is never older than the last commit but in one
#: case: two changes of one federation committing so close together that the earlier one's process sets
#: its version after the later one's; this bounds how long that could last.
VERSION_CACHE_SECONDS = 60


def _version_key(federation_id: int) -> str:
    return f"standings-version:{int(federation_id)}"


def standings_version_cached(federation_id: int) -> str:
    """:func:`standings_version` through the cache, so that a page served whole from the cache costs no
    query (:mod:`masterpoints.public.page_cache`). A reader only adds a version it read where none is kept,
    so it never overwrites the one a commit set."""
    key = _version_key(federation_id)
    version = cache.get(key)
    if version is None:
        version = standings_version(federation_id)
        cache.add(key, version, VERSION_CACHE_SECONDS)
    return version


def forget_standings_version(federation_id: int) -> None:
    """Called by the change that raises the version, in its transaction: the kept version goes now (this
    connection then reads its own, new one), and the new one is set when the change commits (until then,
    readers elsewhere rightly keep reading the old one)."""
    key = _version_key(federation_id)
    cache.delete(key)
    version = standings_version(federation_id)
    transaction.on_commit(lambda: cache.set(key, version, VERSION_CACHE_SECONDS))
