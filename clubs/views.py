"""Public club pages."""

from django.shortcuts import get_object_or_404, render
from django_filters.views import FilterView
from django_tables2 import RequestConfig, SingleTableMixin

from clubs.filters import ClubFilter
from clubs.models import Club
from clubs.selectors import club_list, club_members
from clubs.tables import ClubTable, MemberTable


class ClubListView(SingleTableMixin, FilterView):
    table_class = ClubTable
    filterset_class = ClubFilter
    template_name = "clubs/club_list.html"
    paginate_by = 50

    def get_queryset(self):
        return club_list()


def club_detail(request, pk: int):
    club = get_object_or_404(Club.objects.select_related("federation").prefetch_related("playing_times"), pk=pk)
    members = MemberTable(club_members(club))
    RequestConfig(request, paginate={"per_page": 50}).configure(members)
    return render(request, "clubs/club_detail.html", {"club": club, "members": members})
