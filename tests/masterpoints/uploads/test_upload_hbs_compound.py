"""An HBS compound pairs event (rule 7, H-11, H-16) uploaded as one file of session rankings: upload page →
preview page → confirm → ledger → tournament page."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from office.services import officer_assign
from tests.factories import SyntheticPair, usebio_sessions
from tournaments.models import ResultUpload, Tournament

DAY = datetime.date(2025, 5, 10)
NUMBERS = [str(5001 + i) for i in range(28)]
#: 14 pairs, pair k of players 5001 + 2k and 5002 + 2k.
PAIRS = [
    SyntheticPair(str(k + 1), ((f"A{k}", NUMBERS[2 * k]), (f"B{k}", NUMBERS[2 * k + 1])), f"{70 - k}.00")
    for k in range(14)
]
#: The final of the qualification's best 8, in the final's order of place.
FINAL = [PAIRS[i] for i in (2, 0, 1, 5, 3, 4, 7, 6)]


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Ana", last_name=number)
    return user


def compound_file(final=FINAL) -> SimpleUploadedFile:
    data = usebio_sessions(club_number="101", date=DAY, name="Kup Zagreba", sessions=[(24, PAIRS), (16, final)])
    return SimpleUploadedFile("kup.xml", data, content_type="text/xml")


def upload(client, world, file):
    response = client.post(
        reverse("uploads:upload"),
        {"organiser": f"club:{world.club_hr.pk}", "category": "black", "strength": "1", "file": file},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


def black(number: str) -> int:
    return sum(Award.objects.filter(player__number=number, kind="black").values_list("units", flat=True))


def test_a_qualification_and_final_in_one_file_are_one_tournament_rule_7_h_11_h_16(client, world, direktor):
    """Rule 7: "Složena parska natjecanja tretiraju se kao jedinstveni turnir." The file ranks the qualification
    (14 pairs, 24 boards) and the final of the best 8 (16 boards) on their own; before, every finalist was
    "member twice" and nothing could be confirmed. H-11: N = 14, D = 24 + 16 = 40 on the winner's path:
    B = (3 + 14/5) · 1 · (1 + 40/12) − 7 = 18.13; n = 7 (H-3): 19, 11, 7, 5, 4, 3, 2 (H-6) for the final's
    places 1–7 (H-16), the final's 8th and the non-finalists get nothing. Each player scores once."""
    client.force_login(direktor)
    response = upload(client, world, compound_file())
    preview = client.get(response.url).content.decode()
    assert "PLAYER_TWICE" not in preview
    assert "COMPOUND_EVENT" in preview and "N = 14 pairs" in preview and "D = 40 boards" in preview
    created = ResultUpload.objects.get()
    done = client.post(reverse("uploads:confirm", args=[created.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, [str(m) for m in done.wsgi_request._messages]
    paid = [black(pair.players[0][1]) for pair in FINAL]
    assert paid == [19, 11, 7, 5, 4, 3, 2, 0]
    assert all(black(pair.players[1][1]) == 0 for pair in PAIRS[8:])
    assert Award.objects.filter(player__number=FINAL[0].players[0][1]).count() == 1
    winner = Award.objects.get(player__number=FINAL[0].players[0][1])
    assert "H-11" in winner.explanation_data["rules"] and winner.place_first == 1
    assert Tournament.objects.get().groups.count() == 2
    page = client.get(done.url).content.decode()
    assert "19 black" in page and "H-11" in page


def test_a_pair_that_changes_a_player_between_sessions_is_refused_rule_7_h_16(world, direktor):
    """A compound event's units are its pairs (rule 7): a finalist with another partner cannot be ranked once,
    and the preview says who, where and why; nothing can be confirmed."""
    swapped = SyntheticPair("3", ((FINAL[0].players[0][0], FINAL[0].players[0][1]), ("Z", NUMBERS[27])), "60.00")
    file = compound_file(final=[swapped, *FINAL[1:]])
    created = ResultUpload.objects.create(
        federation=world.hbs,
        club=world.club_hr,
        original_name="kup.xml",
        sha256="0" * 64,
        size=len(file),
        facts={"organiser_kind": "club", "category": "black", "strength": "1", "form": "", "boards": None},
    )
    preview = build_preview(created, data=file.read())
    refused = [issue for issue in preview.issues if issue.code == "ENGINE_REFUSED"]
    assert refused and "rule 7" in str(refused[0].message)
    assert preview.has_errors


def test_a_several_session_file_where_everyone_plays_every_session_warns_that_the_last_ranks_h_16(world, direktor):
    """H-16: with nobody eliminated the last session's ranking is the final result, which is right only when
    it ranks the whole event: the preview warns, so that the director ticks it or uploads the overall ranking."""
    file = compound_file(final=list(reversed(PAIRS)))
    created = ResultUpload.objects.create(
        federation=world.hbs,
        club=world.club_hr,
        original_name="kup.xml",
        sha256="0" * 64,
        size=len(file),
        facts={"organiser_kind": "club", "category": "black", "strength": "1", "form": "", "boards": None},
    )
    preview = build_preview(created, data=file.read())
    assert "COMPOUND_NO_ELIMINATION" in {issue.code for issue in preview.issues}
    assert not preview.has_errors
    first = next(line for line in preview.player_lines if line.id_in_file == PAIRS[-1].players[0][1] and line.awards)
    assert first.place_first == 1
