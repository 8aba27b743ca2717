"""Issue 34, item 11 (H-24): an HBS category reached by points follows the points when a granted correction
takes them away; only a category kept under transition rule 4 ("Igrači s kategorijama, koji ne budu
zadovoljavali nove uvjete, zadržavaju svoje kategorije") stays. Transition imports → correction request → the
commission's decision → ledger → standings → player page, which no longer cites DBf's § 404."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from federation.models import Player
from masterpoints.corrections.services import correction_decide, correction_request_file
from masterpoints.models import Award, CorrectionWindow, Standing, TitleAchievement
from masterpoints.transition.services import transition_keep_categories, transition_opening_import
from office.services import officer_assign


@pytest.fixture
def hbs_office(world, django_user_model, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    tajnik = django_user_model.objects.create_user("tajnik", "tajnik@example.com", "pw")
    komisija = django_user_model.objects.create_user("komisija", "komisija@example.com", "pw")
    officer_assign(actor=None, user=tajnik, role="secretariat", federation=world.hbs)
    officer_assign(actor=None, user=komisija, role="commission", federation=world.hbs)
    today = timezone.localdate()
    CorrectionWindow.objects.create(
        federation=world.hbs, opens_on=today - datetime.timedelta(days=1), closes_on=today + datetime.timedelta(days=30)
    )
    return tajnik, komisija


def player(world, django_user_model, number: str) -> Player:
    user = django_user_model.objects.create_user(f"p{number}", f"p{number}@example.com", "pw")
    return Player.objects.create(federation=world.hbs, number=number, first_name="Ana", last_name="Kos", user=user)


def take_black_points(komisija, who: Player, units: int, capture) -> None:
    """The player asks, with a document (H-14), against their opening award; the commission grants a removal."""
    award = Award.objects.filter(player=who, kind="black").first()
    request = correction_request_file(
        actor=who.user,
        player=who,
        award=award,
        text="Dvostruko upisani rezultati.",
        document=SimpleUploadedFile("dokaz.pdf", b"%PDF-1.4 dokaz"),
    )
    with capture(execute=True):
        correction_decide(
            actor=komisija, correction=request, grant=True, reason="Upisano dvaput.", adjustments=[("black", -units)]
        )


def page_of(client, world, who: Player) -> str:
    return client.get(reverse("public:player", args=[world.hbs.code, who.number])).content.decode()


def test_a_category_reached_by_points_follows_them_after_a_granted_correction_h_24(
    world, hbs_office, django_user_model, client, django_capture_on_commit_callbacks
):
    """210 black points make tref (200); the commission takes 160 away as recorded twice: 50 black points are
    vankategornik, and the page says so, without citing § 404 (H-2 kept every category for ever)."""
    tajnik, komisija = hbs_office
    ana = player(world, django_user_model, "4101")
    transition_opening_import(actor=tajnik, federation=world.hbs, data=b"number,black\n4101,210\n")
    assert Standing.objects.get(player=ana).title == "tref"
    take_black_points(komisija, ana, 160, django_capture_on_commit_callbacks)
    standing = Standing.objects.get(player=ana)
    assert (standing.points("black"), standing.title) == (50, "vankategornik")
    assert TitleAchievement.objects.filter(player=ana, title="tref").exists()  # the register keeps its history
    page = page_of(client, world, ana)
    assert "Vankategornik" in page and "§ 404" not in page


def test_a_category_kept_under_transition_rule_4_stays_after_a_correction_h_24(
    world, hbs_office, django_user_model, client, django_capture_on_commit_callbacks
):
    """An old majstor with 1000 black points keeps majstor under transition rule 4 (red and master topped up to
    500 and 50); a correction taking 600 black away leaves it, and the page names transition rule 4."""
    tajnik, komisija = hbs_office
    ivo = player(world, django_user_model, "4102")
    transition_opening_import(actor=tajnik, federation=world.hbs, data=b"number,black\n4102,1000\n")
    transition_keep_categories(actor=tajnik, federation=world.hbs, data=b"number,category\n4102,majstor\n")
    assert Standing.objects.get(player=ivo).title == "majstor"
    take_black_points(komisija, ivo, 600, django_capture_on_commit_callbacks)
    standing = Standing.objects.get(player=ivo)
    assert (standing.points("black"), standing.title) == (400, "majstor")
    page = page_of(client, world, ivo)
    assert "Majstor" in page and "transition rule 4" in page and "§ 404" not in page
