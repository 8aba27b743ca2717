import django_filters
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class TournamentFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("Name contains"))
    date = django_filters.DateFromToRangeFilter(label=_("Date (from – to)"))

    class Meta:
        model = Tournament
        fields = ["federation", "club", "form", "category", "name", "date"]
