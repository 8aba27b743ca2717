"""Issue 33, item 10: the secretariat bound a player to any login by its raw id in the admin (an officer's, the
superuser's, another federation's). The player's login is read-only there; it is bound by the player's sign-up
through the invitation link."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse

from federation.models import Player


def test_the_secretariat_cannot_bind_a_player_to_a_login_in_the_admin(client, world, personas):
    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw")
    before = Player.objects.get(pk=world.player.pk).user
    client.force_login(personas.secretariat)
    url = reverse("admin:federation_player_change", args=[world.player.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="user"' not in page.content.decode()
    data = {**page.context["adminform"].form.initial, "user": boss.pk}
    data = {key: value for key, value in data.items() if value is not None}
    response = client.post(url, data)
    assert response.status_code == 302, "saved, the login field not among what was read"
    assert Player.objects.get(pk=world.player.pk).user == before != boss
