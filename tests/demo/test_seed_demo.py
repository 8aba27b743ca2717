"""``seed_demo`` builds both demo federations deterministically and idempotently: a second run changes
nothing and a larger run keeps every record of a smaller one."""

import hashlib

from django.core.management import call_command

from clubs.models import Club, ClubMembership, PlayingTime
from federation.models import Federation, Player, Region


def snapshot() -> str:
    rows = [
        sorted(Federation.objects.values_list("code", "scheme", "name")),
        sorted(Region.objects.values_list("federation__code", "code", "kind", "parent__code", "name")),
        sorted(Club.objects.values_list("federation__code", "number", "name")),
        sorted(PlayingTime.objects.values_list("club__number", "weekday", "part_of_day")),
        sorted(Player.objects.values_list("federation__code", "number", "first_name", "last_name", "status")),
        sorted(ClubMembership.objects.values_list("player__number", "club__number", "is_home")),
    ]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def test_seed_demo_builds_both_federations_at_the_asked_scale(db):
    call_command("seed_demo", players=120, clubs=8, hbs_players=40, verbosity=0)
    assert Federation.objects.get(code="dbf").scheme == "dbf"
    assert Federation.objects.get(code="hbs").scheme == "hbs"
    assert Club.objects.filter(federation__code="dbf").count() == 8
    assert Club.objects.filter(federation__code="hbs").count() == 12
    assert Player.objects.filter(federation__code="dbf").count() == 120
    assert Player.objects.filter(federation__code="hbs").count() == 40
    assert Region.objects.filter(federation__code="dbf", kind="circle", parent__isnull=False).exists()
    # Every player has exactly one home club (the membership constraint).
    assert ClubMembership.objects.filter(is_home=True).count() == 160


def test_seed_demo_twice_changes_nothing(db):
    call_command("seed_demo", players=120, clubs=8, hbs_players=40, verbosity=0)
    first = snapshot()
    call_command("seed_demo", players=120, clubs=8, hbs_players=40, verbosity=0)
    assert snapshot() == first


def test_a_larger_seed_keeps_every_player_of_a_smaller_one(db):
    call_command("seed_demo", players=50, clubs=8, hbs_players=10, verbosity=0)
    before = set(Player.objects.values_list("number", "first_name", "last_name"))
    call_command("seed_demo", players=90, clubs=8, hbs_players=10, verbosity=0)
    after = set(Player.objects.values_list("number", "first_name", "last_name"))
    assert before < after
    assert len(after) == 100


def test_the_admin_superuser_exists_only_in_debug(db, settings, django_user_model):
    settings.DEBUG = False
    call_command("seed_demo", players=5, clubs=2, hbs_players=5, verbosity=0)
    assert not django_user_model.objects.filter(username="admin").exists()
    settings.DEBUG = True
    call_command("seed_demo", players=5, clubs=2, hbs_players=5, verbosity=0)
    assert django_user_model.objects.get(username="admin").is_superuser


def test_demo_club_tournaments_record_a_playing_time_of_their_club_on_their_weekday_452a(db):
    """§ 452A counts top-16 lists per weekly playing time, from the playing time a tournament records: the
    demo's club events record one of their club's, on their weekday, so the per-playing-time lists fill."""
    from tournaments.models import Tournament

    call_command("seed_demo", players=120, clubs=8, hbs_players=40, verbosity=0)
    club_events = Tournament.objects.filter(organiser_kind="club").select_related("playing_time")
    assert club_events.exists()
    for tournament in club_events:
        assert tournament.playing_time is not None, tournament
        assert tournament.playing_time.club_id == tournament.club_id
        assert tournament.playing_time.weekday == tournament.date.weekday()


def test_the_default_history_holds_several_seasons_of_tournaments_issue_18(db):
    """Issue 18: several seasons per player, not one season plus opening balances."""
    from demo.management.commands.seed_demo import DEFAULT_SEASONS
    from tournaments.models import Tournament

    call_command("seed_demo", players=120, clubs=8, hbs_players=40, verbosity=0)
    for federation in Federation.objects.all():
        info = federation.scheme_info
        days = Tournament.objects.filter(federation=federation).values_list("date", flat=True)
        assert len({info.season_of(day) for day in days}) == DEFAULT_SEASONS


def test_the_demo_ledger_is_registered_over_the_seasons_and_each_explanation_names_its_place_issue_18(db):
    """Issue 18: the history is registered as it was played (the titles' day, the chart's marks and the
    ranking list's weights read the registration day, D-Q21, D-Q57), on every database; and the demo's
    corrected re-uploads give each swapped pair the explanation of its new place, so the sentence and the
    row agree."""
    from django.db.models.functions import TruncYear

    from masterpoints.models import Award

    call_command("seed_demo", players=120, clubs=8, hbs_players=40, verbosity=0)
    results = Award.objects.filter(source="result").with_explanations()
    years = set(results.annotate(year=TruncYear("created_at")).values_list("year", flat=True))
    assert len(years) >= 3
    wrong = [
        award.pk
        for award in results
        if award.explanation_data.get("inputs", {}).get("place")
        not in (None, str(award.place_first), award.place_first)
    ]
    assert wrong == []
    assert results.filter(tournament__supersedes__isnull=False).exists()
