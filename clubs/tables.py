import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership
from federation.tables import BoundedPages


class ClubTable(BoundedPages, tables.Table):
    name = tables.Column(linkify=True, verbose_name=_("club"))
    members = tables.Column(verbose_name=_("members"), orderable=True)

    class Meta:
        model = Club
        fields = ["number", "name", "federation", "members"]
        attrs = {"class": "table"}


class MemberTable(BoundedPages, tables.Table):
    number = tables.Column(accessor="player__number", verbose_name=_("number"))
    name = tables.Column(accessor="player__last_name", verbose_name=_("name"), order_by=("player__last_name",))

    class Meta:
        model = ClubMembership
        fields = ["number", "name", "is_home"]
        attrs = {"class": "table"}

    def render_name(self, record):
        player = record.player
        return player.number if player.hide_name else player.full_name
