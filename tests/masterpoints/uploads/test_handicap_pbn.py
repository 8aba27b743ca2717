"""Issue 34, item 8, § 405B6f for PBN: "I en handicapturnering uddeles BP efter det nominelle resultat uden
medregning af handicapændringen". A PBN whose TotalScoreTable has a Handicap column (a user column: the PBN
standard has none) is a handicap event like a USEBIO file with HANDICAP or our CSV template with ``handicap``:
BP by the places from the nominal scores, not the file's Rank (the handicap result). A handicap event declared on
the upload whose file carries no handicap is paid on the file's places, and the preview says so naming
§ 405B6f (HANDICAP_NOT_IN_FILE). Through the real path: PBN → preview → confirm → ledger → the player's page.

Twelve pairs; the file with handicaps ranks pair 1 first (its handicap result), while pair 2 has the best scratch
percentage; the file without them gives percentages in the order of its places.
"""

from __future__ import annotations

import datetime

from django.db.models import Sum

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player
from tests.masterpoints.uploads.player_page import page_shows

DAY = datetime.date(2025, 3, 14)
NUMBERS = [str(48001 + i) for i in range(24)]
SCRATCH = [60, 65, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40]


def pbn(*, handicap: bool) -> bytes:
    columns = "Rank;PairId;Names;MemberID;NrBoards;TotalPercentage" + (";Handicap" if handicap else "")
    percentages = SCRATCH if handicap else sorted(SCRATCH, reverse=True)  # without handicaps: the places' order
    handicaps = [(" 5" if i == 0 else " -1") if handicap else "" for i in range(len(SCRATCH))]
    rows = "".join(
        f'{i + 1} {i + 1} "P {a};P {b}" "{a};{b}" 24 {percentages[i]}{handicaps[i]}\n'
        for i, (a, b) in enumerate(zip(NUMBERS[::2], NUMBERS[1::2], strict=True))
    )
    head = '[Event "Handicap BP"]\n[Date "2025.03.14"]\n[Competition "Pairs"]\n[Scoring "MP"]\n'
    return ("% PBN 2.1\n" + head + f'[TotalScoreTable "{columns}"]\n' + rows).encode()


def confirmed(world, personas, *, handicap_in_file: bool, declared: bool):
    for number in NUMBERS:
        make_player(world.dbf, number, first="P", last=number, club=world.club_a)
    upload = results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=pbn(handicap=handicap_in_file),
        filename="handicap.pbn",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "handicap": declared},
    )
    preview = build_preview(upload)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return preview, {item["player__number"]: item["units"] for item in totals}


def test_a_pbn_handicap_column_pays_bp_on_the_nominal_result_405b6f(world, personas):
    preview, paid = confirmed(world, personas, handicap_in_file=True, declared=False)
    first, second = NUMBERS[0], NUMBERS[2]  # pair 1 (first on handicap), pair 2 (first on scratch)
    assert paid[second] > paid[first] > 0
    (basis,) = [issue for issue in preview.issues if issue.code == "HANDICAP_NOMINAL"]
    assert basis.params == {"category": "BP", "rule": "§ 405B6f"}
    assert page_shows(world, second, "Handicap BP", f"{paid[second]} BP")


def test_a_declared_handicap_event_whose_pbn_has_no_handicap_is_named_405b6f(world, personas):
    preview, paid = confirmed(world, personas, handicap_in_file=False, declared=True)
    first, second = NUMBERS[0], NUMBERS[2]
    assert paid[first] > paid[second] > 0  # the file's places, as they are
    (named,) = [issue for issue in preview.issues if issue.code == "HANDICAP_NOT_IN_FILE"]
    assert named.severity == "warning" and "§ 405B6f" in str(named.message) and "Handicap" in str(named.message)
    assert page_shows(world, first, "Handicap BP", f"{paid[first]} BP")


def test_the_dbf_upload_form_asks_whether_it_is_a_handicap_event_405b6f(world):
    form = world.dbf.scheme_info.upload_form(organisers=[("club:1", "x")], scheme=world.dbf.scheme_info)
    assert "§ 405B6f" in str(form.fields["handicap"].label)
