"""Issue 34, item 7: which board count sets the quota (D-Q63), through the real path (PBN → preview → confirm →
ledger).

§ 405B7c: "Hvis der spilles 42 eller flere spil i den samlede turnering, beregnes fuld kvote SP. Hvis der spilles
mellem 27 og 41 spil, beregnes halv kvote SP"; § 405B7b counts "det antal spil …, som turneringen er tilrettelagt
med for denne spiller". D-Q63: the boards the tournament has each participant play (the file's NrBoards) set the
quota, not the boards its travellers hold; the director's figure wins; the preview names the choice when the
two differ (QUOTA_BOARDS).
"""

from __future__ import annotations

import datetime

from django.db.models import Sum

from federation.rulesets import rules_for
from masterpoints.engine.dbf.scale import ScaleRequest, scale
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player
from tests.masterpoints.uploads.player_page import page_shows

NUMBERS = [str(52001 + i) for i in range(24)]
DAY = datetime.date(2025, 2, 3)


def pbn(nrboards: int, travellers: int) -> bytes:
    """12 pairs who each played ``nrboards`` boards (NrBoards), with score tables for ``travellers`` boards."""
    games = "".join(
        f'[Event "Distriktsturnering"]\n[Date "2025.02.03"]\n[Board "{k}"]\n'
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS"]\n1 2 3NT N 9 400\n\n'
        for k in range(1, travellers + 1)
    )
    columns = "Rank;PairId;Names;MemberID;NrBoards;TotalPercentage"
    rows = "".join(
        f'{i + 1} {i + 1} "Jens {a};Jens {b}" "{a};{b}" {nrboards} {70 - i}\n'
        for i, (a, b) in enumerate(zip(NUMBERS[::2], NUMBERS[1::2], strict=True))
    )
    tail = '[Event "Distriktsturnering"]\n[Date "2025.02.03"]\n[Competition "Pairs"]\n[Scoring "MP"]\n'
    return ("% PBN 2.1\n" + games + tail + f'[TotalScoreTable "{columns}"]\n' + rows).encode()


def confirmed(world, personas, *, boards=None):
    for number in NUMBERS:
        make_player(world.dbf, number, first="Jens", last=number, club=world.club_a)
    upload = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=pbn(30, 42),
        filename="distrikt.pbn",
        facts={"organiser_kind": "district", "category": "SP", "form": "", "boards": boards},
    )
    preview = build_preview(upload)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    tournament = results_upload_confirm(actor=personas.district_officer, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return preview, {item["player__number"]: item["units"] for item in totals}


def sp_scale(world, boards: int):
    return scale(
        ScaleRequest(form="pairs", category="SP", participants=12, boards=boards, organizer="district"),
        rules_for(world.dbf, DAY),
    )


def test_each_pairs_30_boards_set_the_half_sp_quota_not_the_42_travellers_405b7c_d_q63(world, personas):
    preview, paid = confirmed(world, personas)
    assert paid[NUMBERS[0]] == sp_scale(world, 30).share_units(1, 1) < sp_scale(world, 42).share_units(1, 1)
    (named,) = [issue for issue in preview.issues if issue.code == "QUOTA_BOARDS"]
    assert (named.params["declared"], named.params["counted"], named.params["used"]) == (30, 42, 30)
    assert named.severity == "warning"
    assert page_shows(world, NUMBERS[0], "Distriktsturnering", f"{paid[NUMBERS[0]] / 10:.1f} SP")


def test_the_directors_board_count_wins_and_nothing_is_assumed_d_q63(world, personas):
    preview, paid = confirmed(world, personas, boards=42)
    assert paid[NUMBERS[0]] == sp_scale(world, 42).share_units(1, 1)
    assert "QUOTA_BOARDS" not in {issue.code for issue in preview.issues}
