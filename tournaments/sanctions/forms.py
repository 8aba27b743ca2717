"""Forms of the sanction workflow (§ 403B): the club's application, the district's and secretariat's steps."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, PlayingTime
from tournaments.models import Form, SanctionApplication

App = SanctionApplication
DATE = forms.DateInput(attrs={"type": "date"})


class SanctionApplicationForm(forms.Form):
    """The application (§ 403B7: with the tournament's form); the service checks the conditions of § 403B."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=None)
    name = forms.CharField(label=_("Tournament name"), max_length=200)
    category = forms.ChoiceField(label=_("Points"), choices=[("SP", _("silver (SP)")), ("GP", _("gold (GP)"))])
    quota = forms.ChoiceField(label=_("Quota"), choices=App.Quota.choices)
    basis = forms.ChoiceField(label=_("Basis"), choices=App.Basis.choices, initial=App.Basis.QUOTA)
    playing_time = forms.ModelChoiceField(
        label=_("Playing time"),
        queryset=None,
        required=False,
        help_text=_("Whose annual tournament this is: one full and one half per playing time per year (§ 403B1–2)."),
    )
    date = forms.DateField(label=_("First day"), widget=DATE)
    end_date = forms.DateField(label=_("Last day"), required=False, widget=DATE)
    form = forms.ChoiceField(label=_("Form"), choices=Form.choices)
    boards = forms.IntegerField(label=_("Boards planned"), min_value=1, max_value=2000)
    entry_deadline = forms.DateField(label=_("Entry deadline"), widget=DATE)
    advertised_on = forms.DateField(label=_("Advertised on"), widget=DATE)
    advertisement = forms.ChoiceField(label=_("Advertised"), choices=App.Advertisement.choices)
    open_to_all = forms.BooleanField(label=_("The tournament is open to all"), required=False, initial=True)
    national = forms.BooleanField(label=_("The tournament is of national character (GP)"), required=False)
    dispensations = forms.MultipleChoiceField(
        label=_("Dispensation asked for (SP only, § 403B5e)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[
            ("b", _("b: open tournament and its advertisement")),
            ("c", _("c: at least 5 clubs, at most half from one club")),
            ("d", _("d: the number of boards")),
        ],
    )
    dispensation_reason = forms.CharField(label=_("Why a dispensation"), required=False, widget=forms.Textarea)
    contact_email = forms.EmailField(label=_("Contact e-mail"), required=False)
    note = forms.CharField(label=_("Note to the district"), required=False, widget=forms.Textarea)

    def __init__(self, *args, clubs, **kwargs):
        """``clubs``: those the user files for; the playing times offered are their active ones (§ 403B1–2),
        and the basis says each club's founding year on record, which its jubilee years count from (§ 403B4).
        A director of one club finds it chosen."""
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs
        only = list(clubs[:2])
        if len(only) == 1:
            self.fields["club"].initial = only[0].pk
            self.fields["club"].empty_label = None
        self.fields["basis"].help_text = _(
            "A jubilee GP tournament needs a year in which the club is a number of years old divisible by 5, "
            "counted from its founding year on record (§ 403B4): %(years)s."
        ) % {"years": "; ".join(founding_year_text(club) for club in clubs)}
        self.fields["playing_time"].queryset = (
            PlayingTime.objects.filter(club__in=clubs, active=True).select_related("club").order_by("club", "weekday")
        )
        self.fields["playing_time"].label_from_instance = lambda pt: f"{pt.club.name}: {pt}"


def founding_year_text(club: Club) -> str:
    """``"Club: founded 1975"``, or that the secretariat has not recorded the year (§ 403B4)."""
    if club.founding_year is None:
        return _("%(club)s: founding year not recorded (ask DBf's secretariat)") % {"club": club.name}
    return _("%(club)s: founded %(year)s") % {"club": club.name, "year": club.founding_year}


class RecommendForm(forms.Form):
    """The district's recommendation to the secretariat (§ 403B7)."""

    recommend = forms.TypedChoiceField(
        label=_("The district"),
        coerce=lambda value: value == "yes",
        choices=[("yes", _("recommends the application")), ("no", _("does not recommend it"))],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 3}))


class DecideForm(forms.Form):
    """Approve, or refuse with a reason (§ 403B4, § 403B7)."""

    approve = forms.TypedChoiceField(
        label=_("Decision"),
        coerce=lambda value: value == "yes",
        choices=[("yes", _("approve")), ("no", _("refuse"))],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(label=_("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
