"""Standings on other apps' pages: ``{% load standings_tags %}{% club_standings club %}`` on the club page.

The club page belongs to ``clubs``, which must not import ``masterpoints`` (the dependency runs
masterpoints → tournaments → clubs); its template loads these tags instead.
"""

from __future__ import annotations

from django import template
from django_tables2 import RequestConfig

from masterpoints.public import selectors
from masterpoints.public.tables import ClubStandingTable, SeasonTopTable

register = template.Library()


@register.inclusion_tag("masterpoints/club_standings.html", takes_context=True)
def club_standings(context, club):
    """The members' standings (with their place in the club), the top scorers of the current season and
    the club's latest tournaments."""
    request = context["request"]
    federation = club.federation
    see_hidden = selectors.can_see_hidden(request.user, federation)
    members = ClubStandingTable(
        selectors.club_member_standings(club), federation=federation, see_hidden=see_hidden, prefix="standings-"
    )
    RequestConfig(request, paginate={"per_page": 50}).configure(members)
    top = SeasonTopTable(
        selectors.club_top_scorers(club), federation=federation, see_hidden=see_hidden, orderable=False
    )
    return {
        "request": request,
        "club": club,
        "members": members,
        "top": top,
        "season": federation.scheme_info.season_label(federation.scheme_info.season_of(selectors.today())),
        "tournaments": selectors.club_tournaments(club),
    }
