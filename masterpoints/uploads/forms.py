"""Forms of the results upload: the file and the tournament facts the file cannot carry."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from federation.schemes import SchemeInfo
from masterpoints.uploads.services import ENCODINGS
from tournaments.models import Form, RecognisedTournament

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
        help_text=_("Mini-teams must be chosen here: no results file names them."),
    )
    category = forms.ChoiceField(label=_("Points played for"), choices=[])
    boards = forms.IntegerField(
        label=_("Boards"),
        required=False,
        min_value=1,
        max_value=2000,
        help_text=_("Leave empty to take the number from the file (per playing day for BP, in all for SP/GP)."),
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
    special = forms.ChoiceField(
        label=_("Special event"),
        required=False,
        choices=[
            ("", _("none")),
            ("simultaneous", _("Klubsølv or another DBf simultaneous event (SP, § 403A1, § 433E)")),
            ("top16", _("Top-16 (SP, § 403A2, § 443B)")),
        ],
        help_text=_("Clubs award SP in these without a sanction."),
    )
    no_outside_entries_refused = forms.BooleanField(
        label=_("The club refused no entries from other clubs (§ 403B5c, B6c)"),
        required=False,
        help_text=_("A tournament with a sanction may then have fewer than 5 clubs, or more than half from one."),
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
    nature = forms.ChoiceField(
        label=_("What kind of event was it?"),
        required=False,
        widget=forms.RadioSelect,
        help_text=_("No results file says it; some events are not scored at all."),
    )

    def __init__(self, *args, organisers: list[tuple[str, str]], scheme: SchemeInfo, recognised=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.scheme = scheme
        self.fields["organiser"].choices = organisers
        if scheme.event_natures:  # HBS rules 1, 8 and 11 (H-15)
            self.fields["nature"].choices = [(nature.value, nature.label) for nature in scheme.event_natures]
            self.fields["nature"].initial = scheme.event_natures[0].value
        else:
            del self.fields["nature"]
        if scheme.recognised_list:
            self.fields["category"].choices = HBS_KINDS
            self.fields["recognised"].queryset = (
                recognised if recognised is not None else RecognisedTournament.objects.none()
            )
            for name in ("split_by_strength", "met", "robots", "special", "no_outside_entries_refused"):
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
            for name in ("strength", "recognised", "internet"):
                del self.fields[name]

    def clean(self):
        data = super().clean()
        if data.get("special") and data.get("category") != "SP":
            self.add_error("special", _("Klubsølv, the simultaneous events and the top-16 award SP (§ 403A)."))
        return data

    def clean_nature(self):
        """H-15: an event whose nature is not scored (HBS rule 11) is refused before the file is stored."""
        nature = self.scheme.nature(self.cleaned_data.get("nature"))
        if nature is None:
            raise forms.ValidationError(_("Choose one of the kinds of event listed."))
        if not nature.scored:
            raise forms.ValidationError(self.scheme.unscored_refusal, params={"nature": nature.label})
        return nature.value

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


class ResolutionForm(forms.Form):
    """Step 2: how to treat a player the file does not identify as a member."""

    player_key = forms.CharField(widget=forms.HiddenInput)
    resolution = forms.ChoiceField(
        label=_("Treat as"),
        choices=[
            ("member", _("this member")),
            ("guest", _("guest: no points")),
            ("office", _("ask the office: no points until it decides")),
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
