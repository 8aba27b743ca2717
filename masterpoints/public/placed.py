"""The rankings' default list read by its stored positions (:class:`~masterpoints.models.StandingPlace`): a
page at any depth is a range of positions found in an index, its length the list's stored size, so neither
grows with the page number or the federation's size.

The positions are derived by the database (:mod:`masterpoints.standings.places`), at most
``PLACES_BOUND_SECONDS`` behind the points; each row's points, title and name are read from the standing and
the register with it, so they show at once. Lists the positions do not order (another kind, a season, a title,
a name, a club, a circle, another list than the default one, ``?sort=``) are ranked by the database as they
are read (:func:`masterpoints.public.selectors.ranked`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import F

from federation.models import Federation, Region
from masterpoints.models import Standing, StandingPlaces
from masterpoints.public.selectors import home_club_name, official_by_default


class PlacedRows(Sequence):
    """The default list of ``federation`` (of ``district`` only, when given) in its stored order: each row a
    :class:`~masterpoints.models.Standing` with its player, ``place`` and ``home_club_name``, as
    :func:`~masterpoints.public.selectors.ranked` gives them."""

    def __init__(self, federation: Federation, district: int | None = None):
        self.federation = federation
        self.district = district
        run = StandingPlaces.objects.filter(federation=federation).first()
        sizes = run.district_sizes if run else {}
        self.size = (sizes.get(str(district), 0) if district else run.listed) if run else 0

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, key):
        if not isinstance(key, slice):
            rows = self[key : key + 1]
            if not rows:
                raise IndexError(key)
            return rows[0]
        start, stop, _step = key.indices(self.size)
        if self.district is None:
            scope = {"placing__federation": self.federation}
            position, place = "placing__position", "placing__place"
        else:
            scope = {"placing__district": self.district}
            position, place = "placing__district_position", "placing__district_place"
        rows = (
            Standing.objects.filter(**scope, **{f"{position}__gt": start, f"{position}__lte": stop})
            .select_related("player")
            .annotate(place=F(place), home_club_name=home_club_name())
            .order_by(position)
        )
        return list(rows)


def placed_rows(filterset, *, sorted_otherwise: bool) -> PlacedRows | None:
    """The rows of the rankings ``filterset`` asks for when the stored positions order them: the career list
    of the default kind and list (DBf total MP, HBS category, rule 5; HBS the official list, rule 3), of the
    whole federation or one district, not sorted otherwise (``sorted_otherwise``); ``None`` for any other."""
    federation = filterset.federation
    if federation is None or sorted_otherwise or not filterset.is_valid() or filterset.chosen_season is not None:
        return None
    chosen = filterset.form.cleaned_data
    default_list = "yes" if official_by_default(federation) else "no"
    if filterset.chosen_kind != federation.scheme_info.ranking_kinds[0].value or chosen.get("official") != default_list:
        return None
    if chosen.get("rung") or (chosen.get("q") or "").strip() or chosen.get("club"):
        return None
    region = str(chosen.get("region") or "")
    if not region:
        return PlacedRows(federation)
    districts = Region.objects.filter(federation=federation, kind=Region.Kind.DISTRICT)
    if region.isdecimal() and districts.filter(pk=int(region)).exists():
        return PlacedRows(federation, int(region))
    return None
