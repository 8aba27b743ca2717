"""Reads of the office entry: the federations a user enters awards for, and the register's players."""

from __future__ import annotations

from federation.models import Federation, Player
from federation.schemes import codes_with
from office.access import federations_served, is_secretariat


def office_entry_federations(user) -> list[Federation]:
    """The federations whose scheme has office-entered forms (§ 451A) and whose secretariat ``user`` is."""
    served = federations_served(user, roles=("secretariat",)).filter(scheme__in=codes_with("office_forms"))
    return [federation for federation in served.order_by("name") if is_secretariat(user, federation)]


def players_by_number(federation: Federation, numbers: set[str]) -> dict[str, Player]:
    """The register's players among ``numbers``, by the number as written (``0555002`` finds ``555002``)."""
    keys = {number: (number.lstrip("0") or "0") if number.isdigit() else number for number in numbers}
    found = Player.objects.filter(federation=federation, number__in={*numbers, *keys.values()})
    register = {player.number: player for player in found}
    return {
        number: register.get(number) or register[keys[number]]
        for number in numbers
        if number in register or keys[number] in register
    }
