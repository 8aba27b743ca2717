"""The rankings' rows, a page at a time.

The default list is read by its stored positions (:class:`~masterpoints.models.StandingPlace`): a page at
any depth is a range of positions found in an index, its length the list's stored size, so neither grows with
the page number or the federation's size. The positions are derived by the database
(:mod:`masterpoints.standings.places`), at most ``PLACES_BOUND_SECONDS`` behind the points; each row's
points, title and name are read from the standing and the register with it, so they show at once.

Lists the positions do not order (another kind, a season, a title, a name, a club, a circle, another list than
the default one, ``?sort=``, DBf's ranking list) are ranked by the database as they are read
(:class:`RankedRows`): a page in the list's own order is read from the standings' (federation, key, player)
indexes with the number of rows above it, its places counted from there; a page in another order
(``?sort=``) ranks the whole filtered list by a window, so its cost grows with the list. Either way only the
page's rows are read whole.
"""

from __future__ import annotations

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank
from django_tables2.data import TableListData
from django_tables2.utils import OrderBy

from federation.models import Federation, Region
from federation.schemes import scheme_of
from federation.tables import SlicedRows
from masterpoints.models import SeasonStanding, Standing, StandingPlaces
from masterpoints.public.selectors import official_by_default, with_home_club_name


class PlacedRows(SlicedRows):
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

    def read(self, part: slice) -> list:
        start, stop, _step = part.indices(self.size)
        if self.district is None:
            scope = {"placing__federation": self.federation}
            position, place = "placing__position", "placing__place"
        else:
            scope = {"placing__district": self.district}
            position, place = "placing__district_position", "placing__district_place"
        rows = Standing.objects.filter(**scope, **{f"{position}__gt": start, f"{position}__lte": stop})
        rows = rows.select_related("player").annotate(place=F(place))
        return list(with_home_club_name(rows).order_by(position))


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


class RankedRows(SlicedRows):
    """A list ranked by ``key`` (descending; equal keys share a place, 1, 2, 2, 4) as it is read, in
    ``order`` (``?sort=``, else by place), a page in two steps: the page's ids and places from the filtered
    list's ids and keys alone (no row outside the page is joined to its player or home club), then the page's
    rows with ``related`` and ``home_club_name``. ``size`` is the list's length where the caller knows it
    (else counted once)."""

    def __init__(self, queryset: QuerySet, *, key: str, related: tuple[str, ...], order=(), size: int | None = None):
        self.queryset, self.key, self.related, self.order, self.size = queryset, key, related, tuple(order), size

    def __len__(self) -> int:
        if self.size is None:
            self.size = self.queryset.count()
        return self.size

    def ordered(self, fields) -> RankedRows:
        """The same list in the order of ``fields`` (the place, then the player, breaks their ties)."""
        return RankedRows(self.queryset, key=self.key, related=self.related, order=fields, size=self.size)

    def read(self, part: slice) -> list:
        page = self._by_key(part) if not self.order else self._windowed(part)
        model = self.queryset.model
        whole = with_home_club_name(model.objects.select_related(*self.related))
        rows = whole.in_bulk([pk for pk, _place in page])
        for pk, place in page:
            rows[pk].place = place
        return [rows[pk] for pk, _place in page]

    def _by_key(self, part: slice) -> list[tuple[int, int]]:
        """The ids and places of ``part`` of the list in its own order (key descending, then the player),
        without ranking the whole list: the page's ids and keys, then the number of rows whose key is higher
        than its first row's (for the standings and the season rows both from their (federation, key, player)
        indexes alone). The first row's place is one more than that number; a later row shares the place of
        the row before when its key is the same, else its place is its position in the list (every row above
        it has a higher key)."""
        start = part.start or 0  # bounds are not negative (SlicedRows)
        page = list(self.queryset.order_by(F(self.key).desc(), "player_id").values_list("pk", self.key)[part])
        if not page:
            return []
        places = [1 + self.queryset.filter(**{f"{self.key}__gt": page[0][1]}).count()]
        for offset in range(1, len(page)):
            places.append(places[-1] if page[offset][1] == page[offset - 1][1] else start + offset + 1)
        return [(pk, place) for (pk, _key), place in zip(page, places, strict=True)]

    def _windowed(self, part: slice) -> list[tuple[int, int]]:
        """The ids and places of ``part`` of the list in another order (``?sort=``): each row's place is a
        window over the whole filtered list (its cost grows with the list)."""
        by_key = F(self.key).desc()
        ranked = self.queryset.annotate(place=Window(Rank(), order_by=by_key))
        return list(ranked.order_by(*self.order, by_key, "player_id").values_list("pk", "place")[part])


class RankedData(TableListData):
    """A table's data of :class:`RankedRows`: a header's order is given to the database, as for a queryset
    (django-tables2 would sort a list's rows in Python, reading every one)."""

    def order_by(self, aliases):
        fields = []
        for alias in aliases:
            column = self.table.columns[OrderBy(alias).bare]
            accessors = column.order_by if alias[0] == column.order_by_alias[0] else column.order_by.opposite
            fields += [accessor.for_queryset() for accessor in accessors]
        self.data = self.data.ordered(fields)


def ranked_rows(queryset: QuerySet, *, scheme, kind: str | None, size: int | None = None) -> RankedRows:
    """The rankings' list ``queryset`` (career standings or one season's) ranked by ``kind``'s column."""
    related = ("player", "player__standing") if queryset.model is SeasonStanding else ("player",)
    return RankedRows(queryset, key=scheme_of(scheme).ranking_column(kind), related=related, size=size)


def ranking_list_rows(queryset: QuerySet) -> RankedRows:
    """DBf's ranking list ``queryset`` ranked by the exact figure (equal figures share a place, D-Q60)."""
    return RankedRows(queryset, key="score", related=("player", "player__standing"))
