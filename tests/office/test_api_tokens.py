"""API tokens on the office page (issue 17): made by the officers who may upload for the club or region,
stored as a digest only, shown once, listed with who made them and their last use, revocable."""

from __future__ import annotations

import hashlib

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from federation.models import AuditEvent
from office.models import ApiToken
from office.services import TOKENS_PER_ORGANISER, api_token_create, api_token_revoke

PAGE = "office:api_tokens"


def make(client, user, organiser: str, name: str = "Compscore"):
    client.force_login(user)
    return client.post(reverse(PAGE), {"organiser": organiser, "name": name})


def test_a_director_makes_a_token_shown_once_and_stored_only_as_its_digest(client, world, personas):
    response = make(client, personas.director_a, f"club:{world.club_a.pk}")
    _token, secret = response.context["created"]
    assert secret.startswith("mpo_") and len(secret) > 40
    assert secret in response.content.decode()
    stored = ApiToken.objects.get()
    assert stored.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(ApiToken.objects.values()))
    assert (stored.club, stored.created_by, stored.prefix) == (world.club_a, personas.director_a, secret[:12])
    again = client.get(reverse(PAGE)).content.decode()
    assert secret not in again and stored.prefix in again and "never" in again
    assert response["Cache-Control"].startswith("max-age=0")
    assert AuditEvent.objects.filter(action="api.token.create", payload__prefix=stored.prefix).exists()


def test_only_the_organisers_one_uploads_for_are_offered(client, world, personas):
    client.force_login(personas.director_a)
    choices = dict(client.get(reverse(PAGE)).context["form"].fields["organiser"].choices)
    assert choices == {f"club:{world.club_a.pk}": str(world.club_a)}
    refused = make(client, personas.director_a, f"club:{world.club_b.pk}")
    assert "organiser" in refused.context["form"].errors and not ApiToken.objects.exists()
    client.force_login(personas.district_officer)
    regions = dict(client.get(reverse(PAGE)).context["form"].fields["organiser"].choices)
    assert set(regions) == {f"region:{world.district.pk}", f"region:{world.circle.pk}"}


@pytest.mark.parametrize("persona", ["commission", "player"])
def test_who_uploads_for_no_club_or_region_gets_no_token_page(client, personas, persona):
    client.force_login(getattr(personas, persona))
    assert client.get(reverse(PAGE)).status_code == 403


def test_the_service_refuses_an_officer_of_another_club_and_bounds_the_tokens(world, personas):
    with pytest.raises(PermissionDenied, match="Bridgeklubben B"):
        api_token_create(actor=personas.director_a, name="x", club=world.club_b)
    for number in range(TOKENS_PER_ORGANISER):
        api_token_create(actor=personas.director_a, name=f"pc {number}", club=world.club_a)
    with pytest.raises(ValidationError, match=f"has {TOKENS_PER_ORGANISER} active API tokens"):
        api_token_create(actor=personas.director_a, name="one more", club=world.club_a)
    with pytest.raises(PermissionDenied):
        api_token_revoke(actor=personas.director_b, token=ApiToken.objects.first())


def test_a_token_is_revoked_from_the_page_with_who_and_when(client, world, personas):
    make(client, personas.director_a, f"club:{world.club_a.pk}")
    token = ApiToken.objects.get()
    client.force_login(personas.director_b)
    assert client.post(reverse("office:api_token_revoke", args=[token.pk])).status_code == 404
    client.force_login(personas.secretariat)  # the secretariat uploads for every club of its federation
    client.post(reverse("office:api_token_revoke", args=[token.pk]))
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == personas.secretariat
    assert "revoked" in client.get(reverse(PAGE)).content.decode()
    assert AuditEvent.objects.filter(action="api.token.revoke").count() == 1


def test_the_office_page_links_the_tokens_for_officers_who_upload(client, personas):
    client.force_login(personas.director_a)
    assert reverse(PAGE) in client.get(reverse("office:home")).content.decode()
    client.force_login(personas.commission)
    assert reverse(PAGE) not in client.get(reverse("office:home")).content.decode()
