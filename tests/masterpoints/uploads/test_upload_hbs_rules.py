"""HBS rule 11 (H-15) and a B fixed in advance on the list (Način bodovanja 3, alternative; H-8, H-17), through
the real path: the admin's list, the upload page, the preview page, the confirm, the ledger, the tournament page."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from federation.models import AuditEvent, Player
from masterpoints.models import Award
from masterpoints.uploads.services import results_upload_create
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import RecognisedAward, RecognisedTournament, ResultUpload, Tournament

NUMBERS = [str(4001 + i) for i in range(24)]


def event_day() -> datetime.date:
    """A day of this year that is never in the future: the list of recognised tournaments is by year (H-1)."""
    return datetime.date(timezone.localdate().year, 1, 1)


@pytest.fixture
def tajnik(world, django_user_model):
    user = django_user_model.objects.create_user("tajnik", "tajnik@example.com", "pw")
    officer_assign(actor=None, user=user, role="secretariat", federation=world.hbs)
    return user


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Ana", last_name=number)
    return user


def results_file(name: str = "Prvenstvo Zagreba") -> SimpleUploadedFile:
    """12 pairs over 24 boards, no ties: the formula with S = 1 pays 10, 5, 4, 3, 2, 1 (vector H-P12)."""
    data = usebio_pairs(
        club_number="101", date=event_day(), name=name, sections=[pairs_from_numbers(NUMBERS, seed=7)], boards=24
    )
    return SimpleUploadedFile("results.xml", data, content_type="text/xml")


def post_upload(client, world, **fields):
    values = {"organiser": f"club:{world.club_hr.pk}", "category": "black", "strength": "1", "file": results_file()}
    return client.post(reverse("uploads:upload"), {**values, **fields})


def winners_units() -> list[int]:
    """Black points of the players of pairs 1…6, first player of each pair."""
    return [Award.objects.get(player__number=NUMBERS[2 * k], kind="black").units for k in range(6)]


# --- rule 11 (H-15) -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("nature", ["friendly", "training", "selection"])
def test_a_friendly_training_or_selection_event_is_refused_at_upload_and_nothing_is_written_rule_11_h_15(
    client, world, direktor, nature
):
    """Rule 11: "Prijateljski i trening mečevi se ne boduju, kao ni zatvoreni turniri igrani u sklopu priprema za
    bilo koju selekciju." The upload asks the event's nature (H-15) and refuses these with the rule cited,
    before the file is stored: no upload, no tournament, no award, no audit row."""
    client.force_login(direktor)
    page = client.get(reverse("uploads:upload"))
    assert "nature" in page.context["form"].fields
    response = post_upload(client, world, nature=nature)
    assert response.status_code == 200
    (message,) = response.context["form"].errors["nature"]
    assert "rule 11" in message and "Nothing was stored" in message
    assert not ResultUpload.objects.exists()
    assert not Tournament.objects.exists() and not Award.objects.exists()
    assert not AuditEvent.objects.filter(action="results.upload.create").exists()


def test_the_upload_service_refuses_an_event_rule_11_does_not_score_whoever_calls_it_h_15(world, direktor):
    """H-15 holds below the form too (the server's import, any other caller): the refusal names rule 11 and
    the answer given, and nothing is stored."""
    with pytest.raises(ValidationError) as caught:
        results_upload_create(
            actor=direktor,
            federation=world.hbs,
            club=world.club_hr,
            region=None,
            data=results_file().read(),
            filename="trening.xml",
            facts={"organiser_kind": "club", "category": "black", "strength": "1", "nature": "training"},
        )
    assert caught.value.code == "EVENT_NOT_SCORED"
    assert "rule 11" in " ".join(caught.value.messages) and "training match" in " ".join(caught.value.messages)
    assert not ResultUpload.objects.exists()


def test_an_organised_competition_is_scored_and_the_dbf_upload_does_not_ask_rule_1_h_15(
    client, world, direktor, personas
):
    """Rule 1: every organised competition is scored, the default answer (H-15); DBf's rule book has no rule 11,
    so its upload form has no such question (a scheme flag, not a scheme code)."""
    client.force_login(direktor)
    assert post_upload(client, world).status_code == 302
    assert ResultUpload.objects.get().facts["nature"] == "competition"
    client.force_login(personas.director_a)
    assert "nature" not in client.get(reverse("uploads:upload")).context["form"].fields


# --- fixed B (H-8, H-17) -------------------------------------------------------------------------------------


def list_in_admin(client, world, tajnik, **fields):
    client.force_login(tajnik)
    data = {"federation": world.hbs.pk, "year": event_day().year, "name": "Prvenstvo Zagreba", "note": ""}
    return client.post(reverse("admin:tournaments_recognisedtournament_add"), {**data, **fields})


def upload_listed_and_confirm(client, world, direktor, entry):
    """The director's upload of the listed tournament, its preview page and the confirm; the tournament page."""
    client.force_login(direktor)
    response = post_upload(client, world, recognised=entry.pk, strength="")
    assert response.status_code == 302, response.content.decode()[:2000]
    preview = client.get(response.url)
    assert preview.status_code == 200
    upload = ResultUpload.objects.get()
    done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, [str(m) for m in done.wsgi_request._messages]
    return preview.content.decode(), client.get(done.url).content.decode()


def test_a_b_fixed_in_advance_on_the_list_replaces_the_formula_at_upload_h_8_h_17(client, world, tajnik, direktor):
    """Način bodovanja 3, alternative: "Bodove za fiksna službena nacionalna i međunarodna natjecanja unaprijed
    se određuju u fiksnom iznosu." The secretariat fixes B = 30 black in the admin (H-17: S stays, every
    tournament has one). 12 pairs: n = 6, P_k = 30 · s_k / s_1 rounded up (H-3, H-6): 30, 17, 11, 8, 5, 3,
    where the formula with S = 1 and D = 24 gives 10, 5, 4, 3, 2, 1. The preview says B is fixed, and why."""
    assert list_in_admin(client, world, tajnik, strength_black="1", fixed_b_black="30").status_code == 302
    entry = RecognisedTournament.objects.get()
    assert entry.awards.get().first_place == 30
    preview, page = upload_listed_and_confirm(client, world, direktor, entry)
    assert "FIXED_B_APPLIED" in preview and "black: B = 30.00" in preview and "H-8" in preview
    assert winners_units() == [30, 17, 11, 8, 5, 3]
    assert Tournament.objects.get().strengths == {"black": "1.000"}
    assert "30 black" in page and "fixed in advance" in page


def test_bands_by_field_size_take_the_b_of_the_largest_band_the_field_reaches_h_8(client, world, tajnik, direktor):
    """ "Eventualno može postojati nekoliko kategorija ovisno o veličini turnira": bands 6: 20 and 13: 30; a field
    of 12 pairs is in the first band, B = 20: 20, 11, 8, 5, 4, 2 (H-3, H-6)."""
    assert list_in_admin(client, world, tajnik, strength_black="1", bands_black="6: 20; 13: 30").status_code == 302
    award = RecognisedAward.objects.get()
    assert award.bands == [[6, "20"], [13, "30"]]
    preview, _page = upload_listed_and_confirm(client, world, direktor, award.tournament)
    assert "B(N ≥ 6) = 20" in preview
    assert winners_units() == [20, 11, 8, 5, 4, 2]


@pytest.mark.parametrize(
    ("fields", "error_field"),
    [
        ({"strength_black": "1", "fixed_b_black": "1001"}, "fixed_b_black"),
        ({"strength_black": "1", "fixed_b_black": "0"}, "fixed_b_black"),
        ({"strength_black": "1", "bands_black": "6 20"}, "bands_black"),
        ({"strength_black": "1", "bands_black": "; ".join(f"{n}: 10" for n in range(1, 12))}, None),
        ({"strength_black": "1", "bands_black": "6: 20; 6: 30"}, None),
        ({"strength_black": "1", "fixed_b_black": "30", "bands_black": "6: 20"}, None),
        ({"strength_black": "1", "fixed_b_red": "30"}, None),
    ],
)
def test_a_fixed_b_is_bounded_and_either_one_b_or_bands_for_a_kind_awarded_h_17(
    client, world, tajnik, fields, error_field
):
    """H-17: 0 < B ≤ 1000 with two decimals, at most 10 bands starting at different field sizes, one fixed B
    or bands (H-8), and only for a kind the entry awards with its S; a refusal writes nothing."""
    response = list_in_admin(client, world, tajnik, **fields)
    assert response.status_code == 200
    form = response.context["adminform"].form
    if error_field:
        assert error_field in form.errors
    else:
        messages = " ".join(str(e) for e in form.non_field_errors())
        assert "H-8" in messages or "H-17" in messages, messages
    assert not RecognisedTournament.objects.exists()
