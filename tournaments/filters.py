import django_filters
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.models import Federation
from tournaments.models import Tournament


class TournamentFilter(django_filters.FilterSet):
    """The public tournament list's filters, each labelled in the reader's language."""

    federation = django_filters.ModelChoiceFilter(queryset=Federation.objects.all(), label=_("Federation"))
    club = django_filters.ModelChoiceFilter(queryset=Club.objects.all(), label=_("Club"))
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("Name contains"))
    date = django_filters.DateFromToRangeFilter(label=_("Date (from – to)"))

    class Meta:
        model = Tournament
        fields = ["federation", "club", "form", "category", "name", "date"]
