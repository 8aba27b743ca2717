"""The public list of tournaments."""

from __future__ import annotations

from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from tournaments.filters import TournamentFilter
from tournaments.selectors import tournament_list
from tournaments.tables import TournamentTable


class TournamentListView(SingleTableMixin, FilterView):
    table_class = TournamentTable
    filterset_class = TournamentFilter
    template_name = "tournaments/tournament_list.html"
    paginate_by = 50

    def get_queryset(self):
        return tournament_list()
