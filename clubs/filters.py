import django_filters
from django.utils.translation import gettext_lazy as _

from clubs.models import Club


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("Name contains"))

    class Meta:
        model = Club
        fields = ["federation", "regions", "name"]
