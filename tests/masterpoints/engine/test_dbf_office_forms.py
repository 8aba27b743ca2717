"""The tournament forms the office enters (§ 451A, D-Q33): each names a section and what the engine computes
it by, and every one of them is computable by the built-in rule set."""

from __future__ import annotations

import pytest

from masterpoints.engine.dbf import DBF_2023
from masterpoints.engine.dbf.events import SPECIAL_EVENTS
from masterpoints.engine.dbf.tables import OFFICE_FORMS, office_form


@pytest.mark.parametrize("form", OFFICE_FORMS, ids=lambda form: form.code)
def test_each_office_form_names_a_table_the_engine_has_d_q33(form):
    """§ 433B–D and § 434A forms name a special pair event of the engine; § 414B–H forms a team or cup table
    of the rule set, of the form's kind."""
    assert form.section.startswith("§ 4")
    if form.entry == "pairs":
        assert form.special in SPECIAL_EVENTS
        assert not form.table
    elif form.entry == "teams":
        assert DBF_2023.team_table(form.table).category == form.category == "GP"
        assert DBF_2023.lookup(DBF_2023.team_bonus_tables, form.table)
    else:
        assert form.entry == "cup"
        assert DBF_2023.lookup(DBF_2023.cup_tables, form.table)


def test_the_sections_the_issue_names_are_all_offered_451a():
    """§ 414B–H, § 434A1–6 and § 433B–D each have a form (§ 433C in its two rows)."""
    sections = {form.section for form in OFFICE_FORMS}
    wanted = {f"§ 414{letter}" for letter in "BCDEFG"} | {"§ 414H2", "§ 414H3", "§ 433C", "§ 433D2a", "§ 433D2b"}
    wanted |= {"§ 434A1a", "§ 434A1b", "§ 434A1c", "§ 434A2a", "§ 434A2b", "§ 434A3", "§ 434A4", "§ 434A5", "§ 434A6"}
    wanted |= {"§ 433B2", "§ 433B2c"}
    assert wanted <= sections
    assert office_form("gp_cup_main").table == "gp_cup_main"
    with pytest.raises(KeyError):
        office_form("nonsense")
