"""Issue 34, item 8, § 405B7e: no BP for partial results of a tournament with SP or GP, through the real path
(upload form fact → preview → confirm → ledger → the player's public page).

§ 405B7e "Det er ikke tilladt at uddele BP for delresultater i en turnering med SP eller GP, men afholdes forinden
finalen en kvalifikationsturnering, kan der uddeles BP efter § 405B6 og reglerne i § 421 - § 446." D-Q66: a club's
BP upload on a day of its granted SP/GP sanction is refused as a session of that tournament unless the director
states it is another tournament or the qualification (the form's ``bp_not_partial``).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from clubs.models import PlayingTime
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_players, make_upload, pairs_from_numbers, usebio_pairs
from tests.masterpoints.uploads.test_preview_trust_inputs import SUMMER, grant

NUMBERS = [str(48001 + i) for i in range(24)]


@pytest.fixture
def monday(world) -> PlayingTime:
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


def bp_upload(world, personas, **facts):
    make_players(world.dbf, NUMBERS)
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=SUMMER,
        name="Sommerturnering, 1. aften",
        sections=[pairs_from_numbers(NUMBERS)],
        boards=24,
    )
    return make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP", **facts)


def test_a_clubs_bp_upload_on_a_day_of_its_sp_tournament_is_refused_as_a_partial_result_405b7e(world, personas, monday):
    grant(world, personas, monday, quota="full", name="Sommerturnering")
    upload = bp_upload(world, personas)
    preview = build_preview(upload)
    (partial,) = [issue for issue in preview.issues if issue.code == "BP_PARTIAL_OF_SP_GP"]
    assert (partial.severity, partial.params["name"], partial.params["category"]) == ("error", "Sommerturnering", "SP")
    with pytest.raises(ValidationError):
        results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert not Award.objects.exists()


def test_a_bp_tournament_the_director_states_is_not_part_of_it_is_paid_and_named_405b7e_d_q66(world, personas, monday):
    grant(world, personas, monday, quota="full", name="Sommerturnering")
    upload = bp_upload(world, personas, bp_not_partial=True)
    preview = build_preview(upload)
    assert "BP_PARTIAL_OF_SP_GP" not in {issue.code for issue in preview.issues}
    assert "BP_BESIDE_SP_GP" in {issue.code for issue in preview.issues}
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    winner = Award.objects.get(tournament=tournament, player__number=NUMBERS[0])
    assert (winner.kind, winner.units) == ("BP", 24)
    page = Client().get(reverse("public:player", args=[world.dbf.code, NUMBERS[0]])).content.decode()
    assert "Sommerturnering, 1. aften" in page and '<td class="num">24 BP</td>' in page
