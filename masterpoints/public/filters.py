"""The filters of the rankings list (page, CSV/XLSX export and JSON API share them). Their choices are read
from the database with each request: a federation's regions, titles and seasons, and the clubs of the region
chosen (a federation's thousand clubs are never listed at once: a club is chosen within its region, or named
by a link, ``?club=<id>``)."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.models import Federation, Region
from federation.params import is_id
from federation.schemes import SchemeInfo, default_scheme
from masterpoints.models import RankingListEntry, Standing
from masterpoints.public import selectors

OFFICIAL_CHOICES = (("yes", _("official list only")), ("no", _("everyone with points")))


def _choice(label, empty_label, method, **extra):
    return django_filters.ChoiceFilter(choices=(), label=label, empty_label=empty_label, method=method, **extra)


def _text_filter():
    return django_filters.CharFilter(
        label=_("Name or number"), method="filter_text", widget=forms.TextInput(attrs={"type": "search"})
    )


def region_clubs(federation: Federation, region: int) -> list[tuple[int, str]]:
    """The active clubs lying in ``region`` (a district's include its circles'), by name, as (id, name)."""
    clubs = Club.objects.filter(Q(regions=region) | Q(regions__parent=region), federation=federation, active=True)
    return list(clubs.distinct().order_by("name").values_list("pk", "name"))


class FederationListFilter(django_filters.FilterSet):
    """What the rankings and the ranking list share: one federation at a time, its regions and the clubs of
    the region chosen, and the name-or-number search (which finds hidden names only for who may see them,
    HBS rule 4). A region or club that is not the federation's is an error of the form, which says so."""

    federation = _choice(_("Federation"), None, "keep")
    region = _choice(
        _("Region"),
        _("all regions"),
        "filter_region",
        error_messages={"invalid_choice": _("Not a region of this federation.")},
    )
    club = _choice(
        _("Club"),
        _("all clubs"),
        "filter_club",
        error_messages={"invalid_choice": _("Not a club of this federation: choose a region, then one of its clubs.")},
    )

    def offer(self, federation: Federation | None, federations) -> None:
        """Choose ``federation`` among ``federations`` and offer its regions and the clubs of the region
        asked for (without one, only a club a link names, and a hint to choose a region)."""
        self.federation = federation
        self.filters["federation"].extra["choices"] = [(f.pk, f.name) for f in federations]
        if federation is None:
            return
        regions = list(Region.objects.filter(federation=federation).order_by("name").values_list("pk", "name"))
        self.filters["region"].extra["choices"] = regions
        asked_region = str(self.data.get("region") or "")
        region = next((pk for pk, _name in regions if str(pk) == asked_region), None)
        clubs = region_clubs(federation, region) if region is not None else []
        asked_club = str(self.data.get("club") or "")
        if is_id(asked_club) and all(str(pk) != asked_club for pk, _name in clubs):
            # A club a link names (its own page, the API's ``club``), in another region or without one.
            named = Club.objects.filter(federation=federation, pk=int(asked_club)).values_list("pk", "name")
            clubs += list(named)
        self.filters["club"].extra["choices"] = clubs
        if region is None:
            self.filters["club"].extra["help_text"] = _("Choose a region and press Show to list its clubs.")

    def keep(self, queryset, name, value):
        return queryset

    def filter_region(self, queryset, name, value):
        return selectors.in_region(queryset, int(value))

    def filter_club(self, queryset, name, value):
        return selectors.in_club(queryset, int(value))

    def filter_text(self, queryset, name, value):
        return selectors.matching(queryset, value, see_hidden=self.sees_hidden())

    def sees_hidden(self) -> bool:
        """The viewer finds the names hidden from the public (the secretariat, HBS rule 4)."""
        return self.request is not None and selectors.can_see_hidden(self.request.user, self.federation)


class StandingFilter(FederationListFilter):
    """Federation (one list at a time), region, club, title or category, point kind, season, name or
    number, and the official list (HBS rule 3; guests on request, rule 4).

    ``season`` chooses which rows are read (career standings or one season's figures); ``kind`` chooses
    the order (see :func:`masterpoints.selectors.ranked`). Choices follow the chosen federation.
    """

    rung = _choice(_("Title or category"), _("any"), "filter_rung")
    kind = _choice(_("Ranked by"), None, "keep")
    season = _choice(_("Season"), _("all seasons (career)"), "keep")
    q = _text_filter()
    official = django_filters.ChoiceFilter(
        choices=OFFICIAL_CHOICES, label=_("List"), empty_label=None, method="filter_official"
    )

    class Meta:
        model = Standing
        fields: list[str] = []  # every filter is declared above

    def __init__(self, data=None, *args, request=None, **kwargs):
        """Missing values get their defaults: the first federation and its default kind and list."""
        data = data.copy() if data is not None else {}
        federations = selectors.federations_by_name()
        chosen = str(data.get("federation", ""))
        federation = next((f for f in federations if str(f.pk) == chosen), federations[0] if federations else None)
        if federation is not None:
            data["federation"] = str(federation.pk)
            data.setdefault("kind", federation.scheme_info.ranking_kinds[0].value)
            data.setdefault("official", "yes" if selectors.official_by_default(federation) else "no")
        super().__init__(data, *args, request=request, **kwargs)
        self.offer(federation, federations)
        if federation is None:
            return
        self.filters["rung"].extra["choices"] = selectors.title_choices(federation)
        self.filters["season"].extra["choices"] = selectors.season_choices(federation)
        self.filters["kind"].extra["choices"] = [(k.value, k.label) for k in federation.scheme_info.ranking_kinds]

    @property
    def scheme(self) -> SchemeInfo:
        return self.federation.scheme_info if self.federation else default_scheme()

    @property
    def chosen_season(self) -> int | None:
        value = self.form.cleaned_data.get("season") if self.is_valid() else None
        return int(value) if value else None

    @property
    def chosen_kind(self) -> str | None:
        return self.form.cleaned_data.get("kind") if self.is_valid() else None

    def filter_queryset(self, queryset):
        """The season decides which table is read; every other filter narrows it."""
        if self.federation is None:
            return queryset.none()
        queryset = selectors.ranking_base(federation=self.federation, season=self.chosen_season)
        return super().filter_queryset(queryset)

    def filter_rung(self, queryset, name, value):
        return selectors.with_rung(queryset, int(value))

    def filter_official(self, queryset, name, value):
        return selectors.on_official_list(queryset, selectors.today()) if value == "yes" else queryset


class RankingListEntryFilter(FederationListFilter):
    """DBf's ranking list ("ranglisten", D-Q56–D-Q60): federation (only those whose scheme publishes the
    list), region, club and name or number, as the rankings offer them.

    ``federation`` is the federation asked for when it has the list, else the first that has one; ``refused``
    is a federation asked for that has none (the page is then a 404)."""

    q = _text_filter()

    class Meta:
        model = RankingListEntry
        fields: list[str] = []  # every filter is declared above

    def __init__(self, data=None, *args, request=None, **kwargs):
        data = data.copy() if data is not None else {}
        federations = selectors.ranking_list_federations()
        chosen = str(data.get("federation", ""))
        federation = next((f for f in federations if str(f.pk) == chosen), None)
        self.refused = federation is None and is_id(chosen) and Federation.objects.filter(pk=int(chosen)).exists()
        federation = federation or (federations[0] if federations else None)
        if federation is not None:
            data["federation"] = str(federation.pk)
        super().__init__(data, *args, request=request, **kwargs)
        self.offer(federation, federations)

    def filter_queryset(self, queryset):
        if self.federation is None or self.refused:
            return queryset.none()
        return super().filter_queryset(selectors.ranking_list_base(federation=self.federation))
