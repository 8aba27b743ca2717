"""The office's form: the tournament form, its facts and the pasted ranking (§ 451A, D-Q33).

Everything is checked before anything is stored: a line that does not parse, a place outside the field, an
unknown player number, a tie that does not add up: each is reported with its line, and nothing is written.
"""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation
from federation.refusals import ShownParams
from federation.rulesets import rules_or_built_in
from masterpoints.engine.dbf.tables import CUP_ROUNDS
from masterpoints.office_entry.ranking import Expectation, parse_ranking
from masterpoints.office_entry.selectors import players_by_number

#: The field of one entry: pairs or teams present (§ 405B1) or, for the national comparison of § 434A5–6,
#: the pairs of the playing period. A pair is two members and a federation of 20,000 players (the largest
#: the README plans for) has at most 10,000 pairs.
MAX_PARTICIPANTS = 10_000
#: Boards of a pairs tournament (as the upload's form) and of one team match: a DM final is some 100 boards,
#: a long team match 64; the bounds keep a typing error from becoming a field.
MAX_BOARDS = 2000
MAX_MATCH_BOARDS = 200
#: Levels (divisions, finals) and parallel rows of a team event: § 414B has three divisions, § 414E three
#: finals with bonus and "øvrige finaler"; § 411D2a shares a bonus between parallel rows (3rd East and West).
MAX_LEVEL = 6
MAX_PARALLEL_ROWS = 4
MAX_RANKING_CHARACTERS = 200_000

FORM_LABELS = {
    "dm_open_superliga": _("DM open pairs, Superliga (GP table, § 434A1a)"),
    "dm_open_1st_division": _("DM open pairs, 1st division (GP table, § 434A1b)"),
    "dm_open_2nd_division": _("DM open pairs, 2nd division (double GP, § 434A1c)"),
    "dm_mixed_a": _("DM mixed pairs, A final (GP table, § 434A2a)"),
    "dm_mixed_b": _("DM mixed pairs, B final (GP table, § 434A2b)"),
    "dm_women": _("DM women's pairs, final (GP table, § 434A3)"),
    "dm_senior": _("DM senior pairs, final (GP table, § 434A4)"),
    "klubsolv_national": _("Klubsølv, national comparison, one direction (GP, § 434A5)"),
    "handicap_national": _("National handicap tournament, national comparison, one direction (GP, § 434A6)"),
    "junior_pairs_final_sp": _("DM junior pairs final (SP with bonus, § 433B2)"),
    "junior_pairs_final_gp": _("DM junior pairs final after regional rounds (GP, no bonus, § 433B2c)"),
    "school_pairs_best": _("DM school pairs, best row (SP, § 433C)"),
    "school_pairs_second": _("DM school pairs, second row (BP, § 433C)"),
    "beginners_qualifier": _("DM beginners, qualifier (SP at half quota, § 433D2a)"),
    "beginners_final": _("DM beginners, final (SP at full quota, § 433D2b)"),
    "gp_division": _("DBf division teams (GP, § 414B)"),
    "gp_women_division": _("DBf women's division teams (GP, § 414C)"),
    "gp_dm_junior": _("DM junior teams (GP, § 414D)"),
    "gp_dm_senior": _("DM senior teams (GP, § 414E)"),
    "gp_dm_mixed": _("DM mixed teams (GP, § 414F)"),
    "gp_dm_club": _("DM club teams (GP, § 414G)"),
    "gp_cup_main": _("DBf cup, main event (GP per won match, § 414H2)"),
    "gp_cup_breadth": _("DBf cup, breadth event (GP per won match, § 414H3)"),
}


class OfficeAwardForm(forms.Form):
    """The tournament form, its facts and its ranking; ``cleaned_data`` then holds the parsed ``lines`` and
    the register's ``players`` by number."""

    office_form = forms.ChoiceField(label=_("Tournament form"))
    name = forms.CharField(label=_("Tournament"), max_length=150)
    date = forms.DateField(label=_("Date"), help_text=_("The last day of play."))
    participants = forms.IntegerField(
        label=_("Pairs or teams in the field"),
        min_value=1,
        max_value=MAX_PARTICIPANTS,
        help_text=_("Those present (§ 405B1); for § 434A5–6 the pairs of the playing period in the whole country."),
    )
    boards = forms.IntegerField(
        label=_("Boards"),
        min_value=1,
        max_value=MAX_BOARDS,
        help_text=_("Pairs: boards of the tournament (for BP per playing day). Teams and cup: boards per match."),
    )
    level = forms.IntegerField(
        label=_("Level (teams)"),
        min_value=1,
        max_value=MAX_LEVEL,
        initial=1,
        help_text=_("1 = 1st division or A final, 2 = 2nd division or B final (and semifinal), and so on."),
    )
    parallel_rows = forms.IntegerField(
        label=_("Parallel rows sharing the bonus (teams, § 411D2a)"),
        min_value=1,
        max_value=MAX_PARALLEL_ROWS,
        initial=1,
        help_text=_("2 for the 3rd division East and West (§ 414B2d)."),
    )
    no_bonus = forms.BooleanField(
        label=_("No bonus for final placing in this stage (a semifinal, § 411D2)"), required=False
    )
    team_boards = forms.IntegerField(
        label=_("Boards each team played (teams)"),
        min_value=1,
        max_value=MAX_BOARDS,
        required=False,
        help_text=_("For the bonus a player needs half of them (§ 411D, § 414A)."),
    )
    ranking = forms.CharField(
        label=_("Ranking"),
        max_length=MAX_RANKING_CHARACTERS,
        widget=forms.Textarea(attrs={"rows": 14, "cols": 70, "spellcheck": "false"}),
        help_text=_(
            "One line per pair or team: the place (3, or 3-4 for a tie), then the player numbers. Teams add "
            "won=MATCHES and drawn=MATCHES, and NUMBER:BOARDS for a player who did not play all the team's "
            "boards; the cup adds rounds=final,semifinal,… (the rounds the team won); the DM junior pairs "
            "final may add bonus=AMOUNT (§ 406B2 entered by hand, § 451A)."
        ),
    )

    def __init__(self, *args, federation: Federation, **kwargs):
        super().__init__(*args, **kwargs)
        self.federation = federation
        self.forms = {form.code: form for form in federation.scheme_info.office_forms}
        self.fields["office_form"].choices = [(code, FORM_LABELS.get(code, code)) for code in self.forms]

    def clean_date(self):
        day = self.cleaned_data["date"]
        if day > timezone.localdate():
            raise forms.ValidationError(_("The date %(date)s is in the future."), params=ShownParams(date=day))
        return day

    def clean(self):
        data = super().clean()
        chosen = self.forms.get(data.get("office_form") or "")
        if chosen is None or self.errors:
            return data
        data["chosen"] = chosen
        rules = rules_or_built_in(self.federation, data["date"])
        if chosen.entry == "teams":
            self._check_team_facts(chosen, data, rules)
        if self.errors:
            return data
        expect = Expectation(
            entry=chosen.entry,
            participants=data["participants"],
            team_boards=data.get("team_boards") if chosen.entry == "teams" else None,
            rounds=CUP_ROUNDS if chosen.entry == "cup" else (),
            bonus_unit=rules.unit(chosen.category) if chosen.pair_bonus else None,
        )
        lines, errors = parse_ranking(data["ranking"], expect)
        if not errors:
            data["players"], errors = self._players(lines)
        if errors:
            self.add_error("ranking", errors)
        data["lines"] = lines
        return data

    def _check_team_facts(self, chosen, data: dict, rules) -> None:
        """A level the section prints (§ 414B–G: match values or a bonus, D-Q35), the boards per match within
        one match's bound, and the team's boards for the bonus's half (§ 411D)."""
        printed = len(rules.team_table(chosen.table).levels)
        bonus_levels = len(dict(rules.lookup(rules.team_bonus_tables, chosen.table)))
        if data["level"] > max(printed, bonus_levels):
            message = _("%(section)s has %(count)s level(s), not %(level)s.")
            params = {"section": chosen.section, "count": max(printed, bonus_levels), "level": data["level"]}
            self.add_error("level", forms.ValidationError(message, params=params))
        if data["boards"] > MAX_MATCH_BOARDS:
            message = _("A team match has at most %(limit)s boards, not %(boards)s.")
            self.add_error(
                "boards", forms.ValidationError(message, params={"limit": MAX_MATCH_BOARDS, "boards": data["boards"]})
            )
        if not data.get("team_boards"):
            self.add_error("team_boards", _("Give the boards each team played: the bonus needs half of them (§ 411D)."))

    def _players(self, lines) -> tuple[dict, list[str]]:
        """The register's player of every number; each unknown number named with its line."""
        wanted = {number for line in lines for number in line.numbers}
        found = players_by_number(self.federation, wanted)
        errors = [
            _("Line %(line)s: no player has the number %(number)s in %(federation)s's register.")
            % {"line": line.line, "number": number, "federation": self.federation.name}
            for line in lines
            for number in line.numbers
            if number not in found
        ]
        return found, errors
