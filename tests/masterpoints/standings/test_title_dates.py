"""The day a title or category is gained (§ 404A "opnår en mestertitel efter registrering", D-Q21): the first
day on which the entries registered by then reach it (the day each entry was written to the ledger, not
the tournament's date), in the incremental update and the full rebuild alike, shown on the player's page
with what its holder receives (§ 404A "Modtager", D-Q22)."""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils.formats import date_format

from federation.models import RuleSet
from masterpoints.ledger import awards_reverse_tournament
from masterpoints.models import Award, Standing, TitleAchievement
from masterpoints.standings.services import standings_rebuild, standings_refresh_players
from tests import factories
from tests.factories import make_player, make_tournament, registered_on

D1, D2, D3, D4 = (datetime.date(2025, 3, day) for day in (3, 10, 17, 24))


def post_award(player, kind: str, units: int, *, day: datetime.date, **fields):
    """An entry dated ``day`` and registered that day, unless ``registered`` says otherwise."""
    fields.setdefault("registered", day)
    return factories.post_award(player, kind, units, day=day, **fields)


def refresh(*players):
    standings_refresh_players(federation=players[0].federation, player_ids=[p.pk for p in players])


def reached(player) -> list[tuple[str, int, datetime.date]]:
    return list(TitleAchievement.objects.filter(player=player).values_list("title", "stars", "reached_on"))


def test_a_title_is_gained_on_the_day_its_registration_reached_the_threshold_404a_d_q21(world):
    """Klubmester needs 2 MP: 1.50 on D1, 2.10 with D2's entry; D3's later entry does not move the day."""
    p = make_player(world.dbf, "801")
    post_award(p, "BP", 150, day=D1)
    post_award(p, "BP", 60, day=D2)
    post_award(p, "BP", 100, day=D3)
    refresh(p)
    assert reached(p) == [("klubmester", 0, D2)]
    assert Standing.objects.get(player=p).title_reached_on == D2


def test_a_title_counts_from_the_day_the_results_were_registered_not_played_404a_d_q21(world):
    """A tournament of D1 whose results are uploaded on D3 makes the title of D3: the registration, not the
    play, gives the title (§ 404A "efter registrering"); an entry of D2 registered on D2 comes first."""
    p = make_player(world.dbf, "800")
    post_award(p, "BP", 150, day=D1, registered=D1)
    post_award(p, "BP", 40, day=D2)
    tournament = make_tournament(world.dbf, world.club_a, key="late", day=D1)
    post_award(p, "BP", 20, day=D1, registered=D3, source="result", tournament=tournament)
    refresh(p)
    assert reached(p) == [("klubmester", 0, D3)]


def test_a_reversal_registered_later_does_not_move_a_title_reached_before_it_404_d_q21(world):
    """2.10 MP registered on D2 make the title of D2; the re-upload on D3 that takes 0.60 back cannot undo it
    (a title once reached is never lost, § 404), nor date it later."""
    p = make_player(world.dbf, "799")
    post_award(p, "BP", 150, day=D1)
    tournament = make_tournament(world.dbf, world.club_a, key="first", day=D2)
    post_award(p, "BP", 60, day=D2, source="result", tournament=tournament)
    refresh(p)  # as after the upload's confirm
    with registered_on(D3):
        awards_reverse_tournament(actor=None, tournament=tournament, reason="re-uploaded")
    refresh(p)
    assert reached(p) == [("klubmester", 0, D2)]
    standings_rebuild()
    assert reached(p) == [("klubmester", 0, D2)]


def test_entries_registered_the_same_day_reach_a_title_together_d_q21(world):
    """Two tournaments of D2 give 30 BP each: neither alone reaches 2 MP from 1.50, both together do."""
    p = make_player(world.dbf, "802")
    post_award(p, "BP", 150, day=D1)
    for key in ("a", "b"):
        tournament = make_tournament(world.dbf, world.club_a, key=key, day=D2)
        post_award(p, "BP", 30, day=D2, source="result", tournament=tournament)
    post_award(p, "BP", 10, day=D3)
    refresh(p)
    assert reached(p) == [("klubmester", 0, D2)]


def test_a_reupload_registered_the_same_day_counts_with_it_d_q21(world):
    """D2's tournament is uploaded and corrected by a re-upload the same day: its 60 BP reversed, 40 BP paid,
    1.90 MP registered by the end of D2, so the title comes with D3's 20 BP, not with the cancelled award."""
    p = make_player(world.dbf, "803")
    post_award(p, "BP", 150, day=D1)
    tournament = make_tournament(world.dbf, world.club_a, key="first", day=D2)
    post_award(p, "BP", 60, day=D2, source="result", tournament=tournament)
    with registered_on(D2):
        awards_reverse_tournament(actor=None, tournament=tournament, reason="re-uploaded")
    again = make_tournament(world.dbf, world.club_a, key="second", day=D2)
    post_award(p, "BP", 40, day=D2, source="result", tournament=again)
    post_award(p, "BP", 20, day=D3)
    post_award(p, "BP", 10, day=D4)
    refresh(p)
    assert Award.objects.filter(player=p, source=Award.Source.REVERSAL, awarded_on=D2).exists()
    assert reached(p) == [("klubmester", 0, D3)]


def test_a_title_reached_and_later_corrected_below_keeps_its_first_day_404_d_q21(world):
    """2.50 MP on D1; a correction of D2 takes 1 MP back, D3 and D4 bring it over 2 MP again. The title was
    reached on D1, and a title once reached is never lost (§ 404, H-2)."""
    p = make_player(world.dbf, "804")
    post_award(p, "BP", 250, day=D1)
    post_award(p, "BP", -100, day=D2, source="correction")
    post_award(p, "BP", 60, day=D3)
    post_award(p, "BP", 10, day=D4)
    refresh(p)
    assert reached(p) == [("klubmester", 0, D1)]


def test_the_day_of_a_title_needing_revaluation_is_when_the_revalued_balances_reach_it_404b_d_q21(world):
    """Kredsmester needs 50 MP with 25 MP in SP or GP, 20 BP revalued as 1 SP (§ 404B1). With BP alone the
    revaluation costs 25 MP, so 5,000 BP (D1) and 6,500 BP (D2) are not enough; 7,500 BP (D3) are exactly
    (§ 404C3). D4's SP changes nothing."""
    p = make_player(world.dbf, "805")
    post_award(p, "BP", 5000, day=D1)
    post_award(p, "BP", 1500, day=D2)
    post_award(p, "BP", 1000, day=D3)
    post_award(p, "SP", 100, day=D4)
    refresh(p)
    assert reached(p) == [("kredsmester", 0, D3)]


def test_each_day_is_judged_by_the_rule_set_in_force_that_day_d_q21_d_q11(world):
    """3 MP of BP and 3 MP of SP on D1: 1★ Klubmester needs 5 MP "kun BP", which the rules read literally
        until the rule set of D3 counts every MP (D-Q11). The star comes with D3's entry: not on D1 (the later
    rule set judging earlier days), nor with D4's."""
    RuleSet.objects.create(federation=world.dbf, valid_from=D3, name="D3", payload={"kun_bp_literal": False})
    p = make_player(world.dbf, "807")
    post_award(p, "BP", 300, day=D1)
    post_award(p, "SP", 300, day=D1)  # 30 SP
    post_award(p, "BP", 1, day=D3)
    post_award(p, "BP", 1, day=D4)
    refresh(p)
    assert reached(p) == [("klubmester", 1, D3)]


def test_an_hbs_category_is_gained_on_the_day_its_minimums_were_met_d_q21(world):
    """H-2: vankategornik needs 50 black points: 40 on D1, 55 with D2's entry; D3's red point comes later."""
    p = make_player(world.hbs, "806")
    post_award(p, "black", 40, day=D1)
    post_award(p, "black", 15, day=D2)
    post_award(p, "red", 5, day=D3)
    refresh(p)
    assert reached(p) == [("vankategornik", 0, D2)]


def test_the_rebuild_dates_titles_as_the_incremental_updates_did_d_q21(world):
    """Entries registered day by day, each day's players updated (the incremental path, as after each
    upload); then the register and the standings are wiped and rebuilt from the ledger: the same titles on
    the same days, batches of one day, a re-upload's reversal and a correction included."""
    players = [make_player(world.dbf, str(810 + i)) for i in range(4)]
    a, b, c, d = players
    plan = {
        D1: [(a, "BP", 150), (b, "BP", 400), (c, "BP", 1900), (d, "SP", 40)],
        D2: [(a, "BP", 30), (a, "BP", 30), (b, "SP", 30), (c, "BP", 100)],
        D3: [(a, "BP", 300), (b, "BP", 1200), (c, "SP", 20), (d, "BP", 170)],
        D4: [(b, "SP", 60), (c, "SP", -10), (d, "GP", 5)],
    }
    for day, entries in plan.items():
        tournament = make_tournament(world.dbf, world.club_a, key=f"t{day}", day=day)
        for p, kind, units in entries:
            source = "correction" if units < 0 else "result"
            post_award(p, kind, units, day=day, source=source, tournament=tournament if units > 0 else None)
        if day == D2:  # the D2 tournament is uploaded again with the same awards: reversed, then re-posted
            with registered_on(D2):
                awards_reverse_tournament(actor=None, tournament=tournament, reason="re-uploaded")
            again = make_tournament(world.dbf, world.club_a, key="again", day=D2)
            for p, kind, units in entries:
                post_award(p, kind, units, day=D2, source="result", tournament=again)
        refresh(*players)
    incremental = sorted(TitleAchievement.objects.values_list("player_id", "rung", "title", "stars", "reached_on"))
    shown = sorted(Standing.objects.values_list("player_id", "title_rung", "title_reached_on"))
    assert {(row[0], row[4]) for row in incremental} >= {(a.pk, D2), (c.pk, D2), (b.pk, D3), (d.pk, D3)}
    TitleAchievement.objects.all()._raw_delete(TitleAchievement.objects.db)
    Standing.objects.all().delete()
    standings_rebuild()
    rebuilt = sorted(Standing.objects.values_list("player_id", "title_rung", "title_reached_on"))
    assert rebuilt == shown
    tops = {}
    for row in incremental:
        tops[row[0]] = max(tops.get(row[0], row), row, key=lambda r: r[1])
    assert sorted(TitleAchievement.objects.values_list("player_id", "rung", "title", "stars", "reached_on")) == sorted(
        tops.values()
    )


def test_the_player_page_shows_the_day_and_the_etui_of_each_title_404a_d_q21_d_q22(world, client):
    p = make_player(world.dbf, "820")
    post_award(p, "BP", 150, day=D1)
    post_award(p, "BP", 60, day=D2)
    post_award(p, "BP", 300, day=D3)  # 5.10 MP of BP: Klubmester ★ on D3
    post_award(p, "BP", 10, day=D4)
    refresh(p)
    page = client.get(reverse("public:player", args=[world.dbf.code, p.number])).content.decode()
    day = date_format(D3, "DATE_FORMAT")  # the reader's locale (issue 18): "March 17, 2025" in English
    assert f"reached {day}" in page and "receives: 1★ grønt etui" in page
    assert f"{day}: Klubmester ★ (receives: 1★ grønt etui)" in page
