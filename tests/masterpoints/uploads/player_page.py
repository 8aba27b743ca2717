"""The player's public page as issue 34's "Done when" reads it: the tournament named and an award's amount shown."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse


def page_shows(world, number: str, tournament: str, amount: str) -> bool:
    """Whether the public page of DBf member ``number`` names ``tournament`` and lists an award of ``amount``
    (as the page writes it: ``"18 BP"``, ``"6.0 SP"``)."""
    page = Client().get(reverse("public:player", args=[world.dbf.code, number])).content.decode()
    return tournament in page and f'<td class="num">{amount}</td>' in page
