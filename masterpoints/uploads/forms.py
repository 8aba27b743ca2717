"""Forms of the results upload: the file and the tournament facts the file cannot carry."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from federation.schemes import SchemeInfo
from masterpoints.engine.common import MAX_BOARDS
from masterpoints.uploads.services import ENCODINGS
from tournaments.models import Form, RecognisedTournament, SimultaneousEvent
from tournaments.recognised import upload_kinds

HBS_KINDS = (("black", _("black points (crni)")), ("red", _("red points (crveni)")), ("master", _("master points")))


class ResultUploadForm(forms.Form):
    """Step 1: who organised it, the file, and the facts the rules need that no results file states."""

    organiser = forms.ChoiceField(label=_("Organiser"))
    file = forms.FileField(
        label=_("Results file"),
        help_text=_("USEBIO XML, PBN with a ranking table (TotalScoreTable), or our CSV template; at most 5 MB."),
    )
    event_form = forms.ChoiceField(
        label=_("Form"),
        required=False,
        choices=[("", _("as the file says")), *Form.choices],
    )
    category = forms.ChoiceField(label=_("Points played for"), choices=[])
    boards = forms.IntegerField(
        label=_("Boards"),
        required=False,
        min_value=1,
        max_value=MAX_BOARDS,
    )
    strength = DecimalInput(
        label=_("Strength S (HBS)"),
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=3,
        help_text=_("From the list of recognised tournaments; the default for unlisted club events otherwise."),
    )
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
    recognised = forms.ModelChoiceField(
        label=_("Listed tournament (HBS)"),
        required=False,
        queryset=None,
        help_text=_("Its point kinds and strengths S from the list of recognised tournaments replace those above."),
    )
    internet = forms.BooleanField(
        label=_("An internet tournament I directed under my HBS licence (rule 10)"), required=False
    )
    tourist = forms.BooleanField(
        label=_("A tourist tournament in Croatia (rule 2: it scores only with HBS's approval)"), required=False
    )
    nature = forms.ChoiceField(
        label=_("What kind of event was it?"),
        required=False,
        widget=forms.RadioSelect,
        help_text=_("No results file says it; some events are not scored at all."),
    )

    def __init__(
        self,
        *args,
        organisers: list[tuple[str, str]],
        scheme: SchemeInfo,
        recognised=None,
        playing_times=(),
        simultaneous_events=None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.scheme = scheme
        self.fields["organiser"].choices = organisers
        for name in ("event_form", "boards"):  # the rule book's own words (schemes.py)
            self.fields[name].help_text = scheme.upload_help.get(name, "")
        if scheme.event_natures:  # HBS rules 1, 8 and 11 (H-15)
            self.fields["nature"].choices = [(nature.value, nature.label) for nature in scheme.event_natures]
            self.fields["nature"].initial = scheme.event_natures[0].value
        else:
            del self.fields["nature"]
        #: playing time id (as posted) → the organiser value of its club (``club:<pk>``)
        self.playing_time_clubs = {str(pt.pk): f"club:{pt.club_id}" for pt in playing_times}
        self.fields["playing_time"].choices = playing_time_choices(playing_times)
        self.fields["simultaneous_event"].queryset = (
            simultaneous_events if simultaneous_events is not None else SimultaneousEvent.objects.none()
        )
        if scheme.recognised_list:
            self.fields["category"].choices = HBS_KINDS
            self.fields["recognised"].queryset = (
                recognised if recognised is not None else RecognisedTournament.objects.none()
            )
            for name in (
                "split_by_strength",
                "met",
                "robots",
                "bye_vp",
                "playing_time",
                "simultaneous_event",
                "special",
                "no_outside_entries_refused",
                "bp_not_partial",
                "team_table",
                "handicap",
            ):
                del self.fields[name]
            self.fields["event_form"].choices = [
                ("", _("as the file says")),
                *[c for c in Form.choices if c[0] != "minihold"],
            ]
        else:
            self.fields["category"].choices = [
                ("BP", _("bronze (BP)")),
                ("SP", _("silver (SP)")),
                ("GP", _("gold (GP)")),
            ]
            for name in ("strength", "recognised", "internet", "tourist"):
                del self.fields[name]

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

    def clean_nature(self):
        """H-15: an event whose nature is not scored (HBS rule 11) is refused before the file is stored."""
        nature = self.scheme.nature(self.cleaned_data.get("nature"))
        if nature is None:
            raise forms.ValidationError(_("Choose one of the kinds of event listed."))
        if not nature.scored:
            raise forms.ValidationError(self.scheme.unscored_refusal, params={"nature": nature.label})
        return nature.value

    def facts(self, *, organiser_kind: str) -> dict:
        """The upload's facts (``ResultUpload.facts``) from the valid form: what the rules need that the file
        cannot say (the upload page and the upload API both store these)."""
        data = self.cleaned_data
        facts = {
            "organiser_kind": organiser_kind,
            "category": data["category"],
            "form": data.get("event_form") or "",
            "boards": data.get("boards"),
        }
        if "nature" in data:  # HBS rules 1, 8 and 11 (H-15)
            facts["nature"] = data["nature"]
        if self.scheme.recognised_list:  # HBS: S and the list of recognised tournaments (H-1, H-4)
            facts["strength"] = str(data["strength"]) if data.get("strength") is not None else ""
            facts["internet"] = data["internet"]
            facts["tourist"] = data["tourist"]  # rule 2, H-27
            if data.get("recognised"):
                facts.update(upload_kinds(data["recognised"]))  # H-1: kinds and S from the list
        else:  # DBf: the facts of § 405B5 (rows), § 405B6d (met), robots and the sanction's kind (§ 403)
            facts.update(split_by_strength=data["split_by_strength"], met=data.get("met"), robots=data["robots"])
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

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.RESULTS_UPLOAD_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s MB; at most %(limit)s MB is accepted. Is it really a results file?"),
                params={
                    "size": f"{upload.size / 1024 / 1024:.1f}",
                    "limit": settings.RESULTS_UPLOAD_MAX_BYTES // 1024 // 1024,
                },
            )
        return upload


def playing_time_choices(playing_times) -> list:
    """The choice of a playing time (§ 452A): as the file says, none, or one of the clubs' active playing
    times, grouped by club when there are several clubs."""
    choices: list = [
        ("", _("as the file's weekday and start time say")),
        ("none", _("none: outside the club's weekly sessions")),
    ]
    by_club: dict = {}
    for pt in playing_times:
        by_club.setdefault(pt.club, []).append((str(pt.pk), str(pt)))
    if len(by_club) == 1:
        choices += next(iter(by_club.values()))
    else:
        choices += [(str(club), options) for club, options in by_club.items()]
    return choices


class PlayingTimeForm(forms.Form):
    """Step 2: the tournament's playing time, where the file cannot tell it (§ 452A, D-Q27)."""

    playing_time = forms.ChoiceField(label=_("Playing time"), required=False)

    def __init__(self, *args, playing_times=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["playing_time"].choices = playing_time_choices(playing_times)


class ResolutionForm(forms.Form):
    """Step 2: how to treat a player the file does not identify as a member."""

    player_key = forms.CharField(widget=forms.HiddenInput)
    resolution = forms.ChoiceField(
        label=_("Treat as"),
        choices=[
            ("member", _("this member")),
            ("guest", _("guest from abroad or visitor: no points")),
            ("office", _("not on the register yet: points held until they join")),
        ],
    )
    number = forms.CharField(label=_("Member number"), required=False, max_length=20)

    def clean(self):
        data = super().clean()
        if data.get("resolution") == "member" and not (data.get("number") or "").strip():
            self.add_error("number", _("Give the member's registration number."))
        return data


class ConfirmForm(forms.Form):
    """Step 3: confirmation; warnings need an explicit tick."""

    acknowledge_warnings = forms.BooleanField(
        label=_("I have read the warnings above and the results are right."), required=False
    )


#: How the encodings of :data:`~masterpoints.uploads.services.ENCODINGS` are offered.
ENCODING_LABELS = {
    "utf-8": _("UTF-8 (Unicode)"),
    "cp1252": _("Windows-1252 (Western European: Danish)"),
    "iso8859-1": _("ISO-8859-1 (Latin-1)"),
    "iso8859-15": _("ISO-8859-15 (Latin-9, with €)"),
    "cp1250": _("Windows-1250 (Central European: Croatian)"),
    "iso8859-2": _("ISO-8859-2 (Latin-2)"),
    "cp850": _("DOS 850 (Western European)"),
    "cp852": _("DOS 852 (Central European)"),
}


class EncodingForm(forms.Form):
    """Step 2: read the stored file again with another character encoding (names with ``æøå`` or ``čćšž``
    garbled), or as detected."""

    encoding = forms.ChoiceField(
        label=_("Read the file as"),
        required=False,
        choices=[("", _("as detected")), *((name, ENCODING_LABELS.get(name, name)) for name in ENCODINGS)],
    )


def resolve_table_choices(data, *, rows: int) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """The choices posted by the table of players to resolve: per row ``N`` (at most ``rows``) its player key
    ``key-N``, its choice ``choice-N`` (``member:NUMBER`` for a suggestion, ``member`` with ``number-N`` for
    another member, ``guest`` or ``office``) and, when the button ``row`` names a row, that row only. ``N``
    is the player's place in the whole list, as the page numbers them.
    Returns ``{key: (resolution, number)}`` and the errors, each naming the player's row."""
    only = data.get("row", "")
    posted = sorted(int(name[4:]) for name in data if name[:4] == "key-" and name[4:].isdecimal() and len(name) <= 10)
    indices = [int(only)] if only.isdecimal() and len(only) <= 6 else posted[:rows]
    choices: dict[str, tuple[str, str]] = {}
    errors: list[str] = []
    for index in indices:
        key, choice = data.get(f"key-{index}", "")[:100], data.get(f"choice-{index}", "")
        if not key or not choice:
            continue
        resolution, _sep, number = choice.partition(":")
        if resolution == "member" and not number:
            number = data.get(f"number-{index}", "").strip()[:20]
            if not number:
                errors.append(str(_("Row %(row)s: give the member's registration number.") % {"row": index}))
                continue
        choices[key] = (resolution, number)
    return choices, errors
