"""The development logins ``seed_demo`` creates in DEBUG, in the order of the demo's story.

Every login's password is its user name. Each officer serves what the demo club works with: the director
directs DBf's first club, the district officer serves that club's district (where its sanction
applications are filed, § 403B7), the secretariat and the commission serve their federation, and each demo
player is a member of their federation's first club, linked to their login through ``Player.user``.
``office.checks.DEMO_USERNAMES`` repeats the names, so a site outside DEBUG warns about them (``office.W001``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from clubs.models import Club
from federation.models import Federation, Player, Region
from office.models import Officer
from office.services import officer_assign
from tournaments.sanctions.rules import club_district


@dataclass(frozen=True)
class DemoLogin:
    """One demo login: its user name (= password), the office it holds (``None`` for a player) and what it
    serves, as the line ``seed_demo`` prints names it."""

    username: str
    office: dict | None
    serves: str


def demo_club(federation: Federation) -> Club | None:
    """The federation's demo club: its first club by number (the director's, the demo players' home club)."""
    return Club.objects.filter(federation=federation).order_by("number").first()


def demo_district(club: Club | None, federation: Federation) -> Region | None:
    """The district the demo club files its sanction applications with (§ 403B7); the federation's first
    district where the club belongs to none."""
    district = club_district(club) if club is not None else None
    if district is None:
        district = Region.objects.filter(federation=federation, kind=Region.Kind.DISTRICT).order_by("code").first()
    return district


def demo_login_player(club: Club | None) -> Player | None:
    """The demo club's player with a login: its first home member (by number) whose membership is current."""
    if club is None:
        return None
    players = Player.objects.filter(memberships__club=club, memberships__is_home=True, status="member")
    return players.order_by("number").first()


def demo_logins(dbf: Federation, hbs: Federation) -> list[DemoLogin]:
    """The demo logins, in the order of the story: upload and apply, recommend, decide, ask, judge."""
    club, hbs_club = demo_club(dbf), demo_club(hbs)
    district = demo_district(club, dbf)
    player, hbs_player = demo_login_player(club), demo_login_player(hbs_club)
    return [
        DemoLogin("klubleder", {"role": "club_director", "federation": dbf, "club": club}, f"director of {club}"),
        DemoLogin("distrikt", {"role": "region_officer", "federation": dbf, "region": district}, str(district)),
        DemoLogin("sekretariat", {"role": "secretariat", "federation": dbf}, "DBf secretariat"),
        DemoLogin("spiller", None, f"DBf player {player and player.number}"),
        DemoLogin("kommission", {"role": "commission", "federation": dbf}, "DBf commission"),
        DemoLogin("tajnik", {"role": "secretariat", "federation": hbs}, "HBS secretariat"),
        DemoLogin("igrac", None, f"HBS player {hbs_player and hbs_player.number}"),
        DemoLogin("komisija", {"role": "commission", "federation": hbs}, "HBS commission"),
    ]


def debug_logins_create(dbf: Federation, hbs: Federation) -> str:
    """Create the missing development logins (never in production: the caller checks DEBUG), the superuser
    admin/admin first, and return a line listing them. A login missing its office gets it (a password once
    set is left alone); a player login is linked to its demo player where the player has no login yet."""
    user_model = get_user_model()
    if not user_model.objects.filter(username="admin").exists():
        user_model.objects.create_superuser("admin", "admin@example.com", "admin")
    players = {"spiller": demo_login_player(demo_club(dbf)), "igrac": demo_login_player(demo_club(hbs))}
    logins = demo_logins(dbf, hbs)
    for login in logins:
        user, created = user_model.objects.get_or_create(username=login.username)
        if created:
            user.set_password(login.username)
            user.save()
        # A demo database seeded before a login served its office (the district once was Fyn) gets it now.
        if login.office is not None and not Officer.objects.filter(user=user, **login.office).exists():
            officer_assign(actor=None, user=user, **login.office)
        player = players.get(login.username)
        if player is not None and player.user_id is None and not Player.objects.filter(user=user).exists():
            player.user = user
            player.save(update_fields=["user"])
    listed = ", ".join(f"{login.username}/{login.username} ({login.serves})" for login in logins)
    return f"DEBUG logins (user/password): admin/admin (superuser), {listed}."
