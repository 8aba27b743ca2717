"""The DBf upload's own questions: rows by strength (§ 405B5), the field met (§ 405B6d–e), a bye's score
(§ 421B), the playing time (§ 452A), the SP a club awards without a sanction (§ 403A), the team pyramid's
events (§ 413B–F), partial results (§ 405B7e) and handicap events (§ 405B6f)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from masterpoints.uploads.forms import ResultUploadForm, playing_time_choices
from masterpoints.uploads.selectors import organiser_playing_times
from tournaments.models import SimultaneousEvent
from tournaments.simultaneous import claimable


class DbfUploadForm(ResultUploadForm):
    """The upload form of a DBf federation."""

    category_choices = (("BP", _("bronze (BP)")), ("SP", _("silver (SP)")), ("GP", _("gold (GP)")))

    split_by_strength = forms.BooleanField(
        label=_("Rows were split by strength (§ 405B5)"), required=False, help_text=_("Leave off for random rows.")
    )
    met = forms.IntegerField(
        label=_("Opponents each entry met"),
        required=False,
        min_value=0,
        help_text=_("Leave empty when everyone met everyone; with a common top this sets the field (§ 405B6d, B7d)."),
    )
    robots = forms.BooleanField(label=_("Everyone played against robots (§ 405B6e)"), required=False)
    bye_vp = DecimalInput(
        label=_("Mini-teams: substitute score for a bye (VP, § 421B)"),
        required=False,
        min_value=0,
        max_value=20,
        max_digits=4,
        decimal_places=2,
        help_text=_(
            "Only if the organiser gave teams sitting out a substitute score (e.g. 13 VP on the 20/0 scale): the "
            "places are then ranked for the points on VP with it. Left empty, the file's places stand (D-Q23)."
        ),
    )
    playing_time = forms.ChoiceField(
        label=_("Playing time"),
        required=False,
        help_text=_(
            "The club's weekly session the tournament was played in (§ 452A). Left as it is, the file's weekday "
            "and start time decide; with two playing times on one weekday and no time in the file, choose here."
        ),
    )
    simultaneous_event = forms.ModelChoiceField(
        label=_("DBf simultaneous event"),
        required=False,
        queryset=None,
        empty_label=_("none"),
        help_text=_(
            "Klubsølv or another simultaneous event DBf announced: clubs award SP in it without a sanction (§ 403A1)."
        ),
    )
    special = forms.ChoiceField(
        label=_("Top-16"),
        required=False,
        choices=[
            ("", _("not a top-16")),
            ("top16", _("the top-16 of the tournament's playing time (SP, § 403A2, § 443B2a)")),
            ("top16_combined", _("the club's combined top-16 (SP, § 403A2, § 443B2b)")),
        ],
        help_text=_("Clubs award SP in one top-16 per playing time per season, or in one combined top-16."),
    )
    no_outside_entries_refused = forms.BooleanField(
        label=_("The club refused no entries from other clubs (§ 403B5c, B6c)"),
        required=False,
        help_text=_("A tournament with a sanction may then have fewer than 5 clubs, or more than half from one."),
    )
    team_table = forms.ChoiceField(
        label=_("Team event"),
        required=False,
        choices=[
            ("", _("an ordinary team event (BP § 412, SP § 413A)")),
            ("sp_third_div_qual", _("SP: a qualification for the 3rd division (§ 413B)")),
            ("sp_district_promotion", _("SP: a district's promotion tournament (§ 413C)")),
            ("sp_women_school", _("SP: DBf's qualification for women's and school teams (§ 413D)")),
            ("sp_junior_qual", _("SP: DBf's qualification for junior teams (§ 413E)")),
            ("sp_festival", _("SP: the festival's open teams (§ 413F)")),
        ],
        help_text=_("The team pyramid's and the festival's events pay their own values and bonus."),
    )
    handicap = forms.BooleanField(
        label=_("A handicap event (§ 405B6f)"),
        required=False,
        help_text=_(
            "BP go by the nominal result, without the handicap: the file must carry the handicaps (USEBIO "
            "HANDICAP, a PBN Handicap column, the CSV template's handicap column), else the preview says so."
        ),
    )
    bp_not_partial = forms.BooleanField(
        label=_("Not a session of the club's SP or GP tournament of these days, or its qualification (§ 405B7e)"),
        required=False,
        help_text=_("BP are not awarded for partial results of a tournament with SP or GP."),
    )

    def __init__(self, *args, playing_times=(), simultaneous_events=None, **kwargs):
        super().__init__(*args, **kwargs)
        #: playing time id (as posted) → the organiser value of its club (``club:<pk>``)
        self.playing_time_clubs = {str(pt.pk): f"club:{pt.club_id}" for pt in playing_times}
        self.fields["playing_time"].choices = playing_time_choices(playing_times)
        self.fields["simultaneous_event"].queryset = (
            simultaneous_events if simultaneous_events is not None else SimultaneousEvent.objects.none()
        )

    @classmethod
    def inputs(cls, federation, organisers, today) -> dict:
        """The organising clubs' playing times (§ 452A) and the simultaneous events DBf announced (§ 403A1)."""
        return {
            "playing_times": organiser_playing_times(organisers),
            "simultaneous_events": claimable(federation, today),
        }

    def clean(self):
        data = super().clean()
        for name in ("simultaneous_event", "special"):
            if data.get(name) and data.get("category") != "SP":
                self.add_error(name, _("Klubsølv, the simultaneous events and the top-16 award SP (§ 403A)."))
        if data.get("team_table") and data.get("category") != "SP":
            self.add_error("team_table", _("The team pyramid's and the festival's events award SP (§ 413B–F)."))
        if data.get("simultaneous_event") and data.get("special"):
            self.add_error("special", _("A tournament is either a simultaneous event (§ 403A1) or a top-16 (§ 403A2)."))
        chosen = data.get("playing_time") or ""
        if chosen not in ("", "none") and self.playing_time_clubs.get(chosen) != data.get("organiser"):
            self.add_error("playing_time", _("Choose a playing time of the organising club, or none (§ 452A)."))
        return data

    def rule_book_facts(self) -> dict:
        """The facts of § 405B5 (rows), § 405B6d (met), robots, the bye's score and the claims of SP (§ 403)."""
        data = self.cleaned_data
        facts = {"split_by_strength": data["split_by_strength"], "met": data.get("met"), "robots": data["robots"]}
        facts["bye_vp"] = str(data["bye_vp"]) if data.get("bye_vp") is not None else ""  # § 421B, D-Q23
        facts.update(self.claim_facts(), no_outside_entries_refused=data["no_outside_entries_refused"])
        facts["bp_not_partial"] = data["bp_not_partial"]  # § 405B7e, D-Q66
        facts["team_table"] = data.get("team_table") or ""  # § 413B–F, D-Q67
        facts["handicap"] = data["handicap"]  # § 405B6f: HANDICAP_NOT_IN_FILE when the file has none
        return facts

    def claim_facts(self) -> dict:
        """The facts of the playing time and the claim of automatic SP (``masterpoints.uploads.claims``)."""
        data = self.cleaned_data
        facts = {"playing_time": data.get("playing_time") or "", "special": ""}
        if data.get("simultaneous_event"):
            facts.update(special="simultaneous", simultaneous_event=data["simultaneous_event"].pk)
        elif data.get("special"):
            facts.update(special="top16", top16="combined" if data["special"] == "top16_combined" else "playing_time")
        return facts
