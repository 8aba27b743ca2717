import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation.tables import BoundedPages
from tournaments.models import Tournament


class TournamentTable(BoundedPages, tables.Table):
    name = tables.Column(linkify=True, verbose_name=_("tournament"))
    organiser = tables.Column(empty_values=(), orderable=False, verbose_name=_("organiser"))

    class Meta:
        model = Tournament
        fields = ["date", "name", "organiser", "form", "category", "boards"]
        attrs = {"class": "table"}

    def render_organiser(self, record):
        return str(record.organiser)
