"""Issue 35, part 2: a player the register does not know is held as a provisional player of the federation,
their points computed and kept (DBf appendix B, "Registrering af MP": "Ved et medlems indmeldelse i en klub,
medregnes eventuelle tidligere registrerede MP automatisk"; HBS rule 4), credited when a member with their number
joins, or merged by the office into an existing member; the ledger rows cite each upload, the credit is
audited, and no point is lost or paid twice."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Sum
from django.urls import reverse

from federation.models import AuditEvent, Player
from masterpoints.models import Award, OfficeCase, ProvisionalPlayer
from masterpoints.office_queue.services import provisional_credit, provisional_players_join
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.resolving import results_upload_remaining_held
from masterpoints.uploads.services import results_upload_confirm
from office.register.services import register_player_add
from tests.factories import SyntheticPair, make_player, make_upload, usebio_pairs

DAY = datetime.date(2025, 3, 4)


def results(world, *, newcomers, name="Tirsdag", day=DAY) -> bytes:
    members = [str(85001 + i) for i in range(6)]
    rows = [
        SyntheticPair("1", (newcomers[0], newcomers[1]), "62.00"),
        SyntheticPair("2", ((f"Ole {members[0]}", members[0]), (f"Ole {members[1]}", members[1])), "55.00"),
        SyntheticPair("3", ((f"Ole {members[2]}", members[2]), (f"Ole {members[3]}", members[3])), "50.00"),
        SyntheticPair("4", ((f"Ole {members[4]}", members[4]), (f"Ole {members[5]}", members[5])), "45.00"),
    ]
    return usebio_pairs(club_number=world.club_a.number, date=day, name=name, sections=[rows], boards=24)


@pytest.fixture
def confirmed(world, personas):
    """A club evening whose winners are not on the register: Lars Ny (number 90001 in the file) and Mette Ny
    (no number); the director holds both ("hold the remaining players' points") and confirms."""
    for i in range(6):
        make_player(world.dbf, str(85001 + i), first="Ole", last=str(85001 + i), club=world.club_a)
    data = results(world, newcomers=(("Lars Ny", "90001"), ("Mette Ny", None)))
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")
    assert results_upload_remaining_held(actor=personas.director_a, upload=upload) == 2
    return results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)


def held_units(provisional: ProvisionalPlayer) -> int:
    return sum(award["units"] for case in provisional.cases.all() for award in case.awards)


def test_the_unknown_players_are_held_with_their_points_and_nothing_is_paid_yet(world, confirmed):
    lars, mette = ProvisionalPlayer.objects.order_by("name")
    assert (lars.name, lars.number, lars.club) == ("Lars Ny", "90001", world.club_a)
    assert (mette.name, mette.number, mette.folded_name) == ("Mette Ny", "", "mette ny")
    assert lars.is_held and held_units(lars) > 0 and held_units(lars) == held_units(mette)
    paid = set(Award.objects.filter(tournament=confirmed).values_list("player__number", flat=True))
    assert paid and paid <= {str(85001 + i) for i in range(6)}, "members only, until the held are credited"


def test_a_later_file_holds_the_same_persons_points_on_the_same_record(world, personas, confirmed):
    data = results(world, newcomers=(("Lars Ny", "90001"), ("Mette Ny", None)), name="Torsdag", day=DAY.replace(day=6))
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")
    results_upload_remaining_held(actor=personas.director_a, upload=upload)
    results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert ProvisionalPlayer.objects.count() == 2
    assert [p.cases.count() for p in ProvisionalPlayer.objects.order_by("name")] == [2, 2]


def test_joining_the_register_credits_the_held_points_citing_the_upload(world, personas, confirmed):
    lars = ProvisionalPlayer.objects.get(number="90001")
    held = held_units(lars)
    member = register_player_add(
        actor=personas.secretariat, federation=world.dbf, number="90001", first_name="Lars", last_name="Ny"
    )
    assert provisional_players_join() == 1
    awards = Award.objects.filter(player=member)
    assert awards.aggregate(total=Sum("units"))["total"] == held
    assert all(award.tournament_id == confirmed.pk for award in awards)
    assert "Left to the office in upload" in awards.first().reason and "90001" in awards.first().reason
    lars.refresh_from_db()
    assert lars.member == member and lars.credited_by is None
    credit = AuditEvent.objects.get(action="provisional.credit", target_id=str(lars.pk))
    assert (
        credit.actor is None and credit.payload["how"] == "joined" and credit.payload["tournaments"] == [confirmed.pk]
    )
    assert provisional_players_join() == 0, "credited once"


def test_the_office_merges_a_provisional_player_into_an_existing_member_audited(world, personas, confirmed):
    mette = ProvisionalPlayer.objects.get(name="Mette Ny")
    existing = make_player(world.dbf, "70707", first="Mette", last="Nygaard-Ny", club=world.club_a)
    before = Award.objects.aggregate(total=Sum("units"))["total"]
    posted = provisional_credit(actor=personas.secretariat, provisional=mette, player=existing)
    assert sum(award.units for award in posted) == held_units(mette)
    assert Award.objects.aggregate(total=Sum("units"))["total"] == before + held_units(mette), "nothing lost"
    assert OfficeCase.objects.filter(provisional=mette, status="member", player=existing).count() == 1
    merged = AuditEvent.objects.get(action="provisional.credit", target_id=str(mette.pk))
    assert merged.actor == personas.secretariat and merged.payload["how"] == "merged"
    with pytest.raises(ValidationError, match="already credited"):
        provisional_credit(actor=personas.secretariat, provisional=mette, player=existing)


def test_only_the_federations_secretariat_merges(world, personas, confirmed):
    mette = ProvisionalPlayer.objects.get(name="Mette Ny")
    for actor in (personas.director_a, personas.commission):
        with pytest.raises(PermissionDenied):
            provisional_credit(actor=actor, provisional=mette, player=world.player)
    assert ProvisionalPlayer.objects.get(pk=mette.pk).is_held


def test_a_guest_stays_for_the_visitor_and_gets_nothing(world, personas):
    for i in range(6):
        make_player(world.dbf, str(85001 + i), first="Ole", last=str(85001 + i), club=world.club_a)
    data = results(world, newcomers=(("Visitor Abroad", None), ("Mette Ny", None)))
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")
    visitor, mette = build_preview(upload).unresolved
    upload.resolutions = {visitor.key: {"resolution": "guest"}, mette.key: {"resolution": "office"}}
    upload.save(update_fields=["resolutions"])
    results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert list(ProvisionalPlayer.objects.values_list("name", flat=True)) == ["Mette Ny"]


def test_the_office_sees_the_held_points_in_the_admin_and_credits_from_there(client, world, personas, confirmed):
    client.force_login(personas.secretariat)
    page = client.get("/admin/masterpoints/provisionalplayer/").content.decode()
    assert "Lars Ny" in page and "Mette Ny" in page and "Credit to a member" in page
    mette = ProvisionalPlayer.objects.get(name="Mette Ny")
    existing = make_player(world.dbf, "70708", first="Mette", last="Ny", club=world.club_a)
    url = reverse("admin:masterpoints_provisionalplayer_credit", args=[mette.pk])
    assert client.post(url, {"player": existing.pk}).status_code == 302
    assert Award.objects.filter(player=existing).exists()
    assert Player.objects.filter(number="90001").count() == 0, "an upload never creates a member"
