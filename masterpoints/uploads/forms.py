"""Forms of the results upload: the file and the tournament facts the file cannot carry."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from federation.schemes import SchemeInfo
from masterpoints.engine.common import MAX_BOARDS
from masterpoints.uploads.services import ENCODINGS
from tournaments.models import Form


class ResultUploadForm(forms.Form):
    """Step 1: who organised it, the file, and the facts the rules need that no results file states.

    The fields every rule book asks; a rule book's plugin subclasses it with the fields and facts of its own
    (``SchemeInfo.upload_form``), and the upload page and the upload API build that form."""

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
    nature = forms.ChoiceField(
        label=_("What kind of event was it?"),
        required=False,
        widget=forms.RadioSelect,
        help_text=_("No results file says it; some events are not scored at all."),
    )

    #: The point kinds the form offers (a rule book's form sets them).
    category_choices: tuple = ()

    def __init__(self, *args, organisers: list[tuple[str, str]], scheme: SchemeInfo, **kwargs):
        super().__init__(*args, **kwargs)
        self.scheme = scheme
        self.fields["organiser"].choices = organisers
        self.fields["category"].choices = self.category_choices
        for name in ("event_form", "boards"):  # the rule book's own words (its plugin's scheme)
            self.fields[name].help_text = scheme.upload_help.get(name, "")
        if scheme.event_natures:  # HBS rules 1, 8 and 11 (H-15)
            self.fields["nature"].choices = [(nature.value, nature.label) for nature in scheme.event_natures]
            self.fields["nature"].initial = scheme.event_natures[0].value
        else:
            del self.fields["nature"]

    @classmethod
    def inputs(cls, federation, organisers: list[tuple], today) -> dict:
        """The lists the form offers beyond the organisers, for ``federation`` on ``today`` (``organisers``:
        (value, label, club or region) of each): keyword arguments of the form. A rule book's form adds its own."""
        return {}

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
        facts.update(self.rule_book_facts())
        return facts

    def rule_book_facts(self) -> dict:
        """The facts only the rule book's own fields ask (its plugin's form)."""
        return {}

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
