"""The filters of the rankings list (page, CSV/XLSX export and JSON API share them)."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from html import escape

import django_filters
from django import forms
from django.forms.utils import flatatt
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_filters.fields import ChoiceField

from clubs.models import Club
from federation.models import Federation, Region
from federation.params import is_id
from federation.schemes import FALLBACK, SchemeInfo
from masterpoints.models import RankingListEntry, Standing
from masterpoints.public import selectors
from masterpoints.public.listed import ListedRows, listed
from masterpoints.public.ranks import kept

OFFICIAL_CHOICES = (("yes", _("official list only")), ("no", _("everyone with points")))
#: The filter forms kept rendered with one federation's choices (:meth:`FederationListFilter.rendered`); each
#: holds the club and region lists, about 45 KB for a thousand clubs, so a process keeps at most about 3 MB
#: a federation.
KEPT_FORMS = 64
_KEEPING = threading.Lock()


class FastSelect(forms.Select):
    """A ``<select>`` built in Python: a federation's thousand clubs cost a millisecond instead of a
    template rendering per option (the rankings page is the busiest page of the site).

    ``options_html``: the ``<option>`` elements, escaped and built once (kept in the choices cache) and
    outside ``choices``, so that a form's copy of the widget does not normalise a thousand choices; the
    chosen one is marked at rendering. Without it, ``choices`` are rendered.
    """

    def __init__(self, attrs=None, choices=(), *, options_html: str | None = None):
        super().__init__(attrs, choices)
        self.options_html = options_html

    def __deepcopy__(self, memo):
        copied = super().__deepcopy__(memo) if self.options_html is None else copy.copy(self)
        copied.attrs = self.attrs.copy()
        return copied

    def render(self, name, value, attrs=None, renderer=None):
        chosen = set(self.format_value(value))
        options = self.options_html
        if options is None:
            options = options_html((key, str(label)) for key, label in self.choices)
        for key in chosen:
            options = options.replace(f'value="{escape(key)}">', f'value="{escape(key)}" selected>', 1)
        final = {**self.build_attrs(self.attrs, attrs), "name": name}
        return mark_safe(f"<select{flatatt(final)}>{options}</select>")  # noqa: S308 - every value escaped


def options_html(pairs) -> str:
    return "".join(f'<option value="{escape(str(key))}">{escape(label)}</option>' for key, label in pairs)


class CopiedCheaply:
    """A filter that each filter set copies without a deep copy. django-filter deep-copies every declared
    filter for every filter set (0.5 ms of each rankings page, issue 16); these filters' labels, widgets
    and choices are never changed in place (a filter set replaces them in its copy's ``extra``:
    :meth:`FederationListFilter.offer`), so a copy with its own ``extra`` is enough."""

    def __deepcopy__(self, memo):
        copied = copy.copy(self)
        copied.__dict__.pop("_field", None)  # a form field is built for each copy
        copied.extra = dict(self.extra)
        copied.method = self.method  # binds the copy's own FilterMethod, as django-filter's setter does
        return copied


class KeptInItsForm:
    """A filter's form field, which a form need not copy: django-filter builds each filter set's form class
    from fields built for that filter set's own copies of its filters, so the deep copy a form makes of its
    class's fields (0.2–0.3 ms of each rankings page, issue 16) copies what no other form holds."""

    def __deepcopy__(self, memo):
        return self


class OwnChoiceField(KeptInItsForm, ChoiceField):
    pass


class OwnCharField(KeptInItsForm, forms.CharField):
    pass


class ChoiceFilter(CopiedCheaply, django_filters.ChoiceFilter):
    field_class = OwnChoiceField


class CharFilter(CopiedCheaply, django_filters.CharFilter):
    field_class = OwnCharField


def _choice(label, empty_label, method):
    return ChoiceFilter(choices=(), label=label, empty_label=empty_label, method=method, widget=FastSelect)


def _choices(federation: Federation) -> dict:
    """The regions, clubs, titles and seasons to choose from: they change seldom, so each process keeps them
    (``ranks.kept``) for the day, at most ``RANK_INDEX_SECONDS``. ``forms``: the forms rendered with these
    choices (:meth:`FederationListFilter.rendered`), forgotten with them."""

    def read() -> dict[str, list]:
        regions = Region.objects.filter(federation=federation).order_by("name").values_list("pk", "name")
        clubs = Club.objects.filter(federation=federation, active=True).order_by("name").values_list("pk", "name")
        return {
            "region": options_html(regions),
            "club": options_html(clubs),
            "rung": selectors.title_choices(federation),
            "season": selectors.season_choices(federation),
            "forms": {},
        }

    return kept(("rankings-choices", federation.pk), read, stamp=str(selectors.today()))


def _text_filter():
    return CharFilter(label=_("Name or number"), method="filter_text", widget=forms.TextInput(attrs={"type": "search"}))


class FederationListFilter(django_filters.FilterSet):
    """What the rankings and the ranking list share: one federation at a time, its regions and clubs, and
    the name-or-number search (which finds hidden names only for who may see them, HBS rule 4)."""

    federation = _choice(_("Federation"), None, "keep")
    # Long lists: plain text fields with a select for a widget, so that a form never copies a thousand
    # choices (a choice field deep-copies its choices with every form); the methods ignore what is no id.
    region = CharFilter(label=_("Region"), method="filter_region", widget=FastSelect)
    club = CharFilter(label=_("Club"), method="filter_club", widget=FastSelect)
    #: The chosen federation's kept choices (:func:`_choices`); ``None``: no federation to choose.
    choices: dict | None = None

    def offer(self, federation: Federation | None, federations) -> dict | None:
        """Choose ``federation`` among ``federations`` and offer its regions and clubs; its cached choices
        (:func:`_choices`), or ``None`` when there is no federation to choose."""
        self.federation = federation
        self.filters["federation"].extra["choices"] = [(f.pk, f.name) for f in federations]
        if federation is None:
            return None
        choices = self.choices = _choices(federation)
        for name, everything in (("region", _("all regions")), ("club", _("all clubs"))):
            options = options_html([("", str(everything))]) + choices[name]
            self.filters[name].extra["widget"] = FastSelect(options_html=options)
        return choices

    def rendered(self, render: Callable[[], str], *extra) -> str:
        """What ``render()`` makes of this filter set's form (the fields as the page shows them, and the line
        of the filters applied), rendered once for each language, value of each field as asked (a bound
        field shows the value asked, and marks an error, which the same value and choices make again) and
        ``extra`` (what else ``render`` reads), and kept with the choices it was rendered from, the newest
        :data:`KEPT_FORMS` (the rankings' form with a thousand clubs cost 0.76 ms of each page not kept: issue 16).
        Without a federation to choose, rendered each time."""
        if self.choices is None:
            return render()
        data = self.form.data
        asked = tuple(
            (name, tuple(data.getlist(name)) if hasattr(data, "getlist") else (str(data.get(name, "")),))
            for name in self.form.fields
        )
        key = (type(self), get_language(), tuple(self.filters["federation"].extra["choices"]), asked, *extra)
        forms = self.choices["forms"]
        found = forms.get(key)
        if found is None:
            found = render()
            with _KEEPING:  # a threaded server's requests share the kept forms
                while forms and len(forms) >= KEPT_FORMS:
                    forms.pop(next(iter(forms)))  # the oldest first
                forms[key] = found
        return found

    def keep(self, queryset, name, value):
        return queryset

    def filter_region(self, queryset, name, value):
        return selectors.in_region(queryset, int(value)) if is_id(value) else queryset

    def filter_club(self, queryset, name, value):
        return selectors.in_club(queryset, int(value)) if is_id(value) else queryset

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
    official = ChoiceFilter(
        choices=OFFICIAL_CHOICES, label=_("List"), empty_label=None, method="filter_official", widget=FastSelect
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
        choices = self.offer(federation, federations)
        if choices is None:
            return
        self.filters["rung"].extra["choices"] = choices["rung"]
        self.filters["season"].extra["choices"] = choices["season"]
        self.filters["kind"].extra["choices"] = [(k.value, k.label) for k in federation.scheme_info.ranking_kinds]

    @property
    def scheme(self) -> SchemeInfo:
        return self.federation.scheme_info if self.federation else FALLBACK

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

    def listed(self, *, version: str | None = None) -> ListedRows | None:
        """The list's rows from the rank index where it holds them: no filter but the list and at most one of
        a region, a club or a name, read as :meth:`filter_region`, :meth:`filter_club` and :meth:`filter_text`
        read them (a region or club that is no id filters nothing; a number finds one row by the register, in
        the database). ``None``: read them in the database (:func:`~masterpoints.public.listed.listed`).
        ``version``: the standings version the page has read."""
        if self.federation is None or not self.is_valid() or self.chosen_season is not None:
            return None
        chosen = self.form.cleaned_data
        text = (chosen.get("q") or "").strip()
        words = selectors.name_words(text)
        if chosen.get("rung") or (text and (text.isdigit() or not words)):
            return None
        region, club = chosen.get("region") or "", chosen.get("club") or ""
        return listed(
            self.federation,
            official=chosen.get("official") == "yes",
            region=int(region) if is_id(region) else None,
            club=int(club) if is_id(club) else None,
            words=words,
            see_hidden=bool(words) and self.sees_hidden(),
            version=version,
        )

    @property
    def in_index_order(self) -> bool:
        """The list is ranked by the index's key (the default kind: DBf total MP, HBS category, rule 5)."""
        return self.chosen_kind == self.scheme.ranking_kinds[0].value

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
