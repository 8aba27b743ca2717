"""The filters of "My uploads": the club (one the user may act for) and the state."""

from __future__ import annotations

import django_filters
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from masterpoints.uploads.selectors import SUPERSEDED
from office.access import clubs_for
from tournaments.models import ResultUpload

STATE_CHOICES = [*ResultUpload.Status.choices, (SUPERSEDED, _("superseded"))]


def _clubs(request):
    """The clubs the user may see the uploads of: their own as director, the federation's for the secretariat."""
    return clubs_for(request.user).order_by("name") if request is not None else Club.objects.none()


class ResultUploadFilter(django_filters.FilterSet):
    club = django_filters.ModelChoiceFilter(queryset=_clubs, label=_("Club"), empty_label=_("my own uploads"))
    state = django_filters.ChoiceFilter(choices=STATE_CHOICES, label=_("State"))

    class Meta:
        model = ResultUpload
        fields = ["club", "state"]
