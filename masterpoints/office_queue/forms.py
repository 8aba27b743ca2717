"""The secretariat's form resolving one player an upload left to the office (D-Q48)."""

from __future__ import annotations

from django import forms
from django.contrib.admin.widgets import AutocompleteSelect
from django.utils.translation import gettext_lazy as _

from federation.models import Player
from federation.params import MAX_ID
from masterpoints.models import OfficeCase
from office.register.records import LENGTHS


class MemberChoiceForm(forms.Form):
    """A form with a ``player`` chosen among ``players`` by the admin's autocomplete (by number or name)."""

    player = forms.ModelChoiceField(label=_("Member"), queryset=Player.objects.none(), required=False)

    def __init__(self, *args, players, admin_site, **kwargs):
        super().__init__(*args, **kwargs)
        chosen = str(self.data.get("player", "")) if self.is_bound else ""
        if self.is_bound and not (chosen.isdecimal() and int(chosen) <= MAX_ID):
            # Not an id (the autocomplete sends ids): as if none was chosen, so the page can be drawn again.
            self.data = self.data.copy()
            self.data.pop("player", None)
        # The widget first, then the queryset: setting the queryset hands the widget its choices (a widget
        # set afterwards keeps a plain list and cannot draw a chosen player when the form is shown again).
        self.fields["player"].widget = AutocompleteSelect(OfficeCase._meta.get_field("player"), admin_site)
        self.fields["player"].queryset = players


class OfficeCaseResolveForm(MemberChoiceForm):
    """An existing member (chosen by number or name), a new member added to the register, or a guest."""

    field_order = ["resolution", "player", "number", "first_name", "last_name"]

    resolution = forms.ChoiceField(
        label=_("The player is"),
        choices=[
            ("member", _("a member of the register")),
            ("new", _("a new member: add them to the register")),
            ("guest", _("a guest: no points")),
        ],
        widget=forms.RadioSelect,
    )
    number = forms.CharField(label=_("New member's registration number"), max_length=LENGTHS["number"], required=False)
    first_name = forms.CharField(label=_("first name"), max_length=LENGTHS["first_name"], required=False)
    last_name = forms.CharField(label=_("last name"), max_length=LENGTHS["last_name"], required=False)

    def clean(self):
        data = super().clean()
        if data.get("resolution") == "member" and not data.get("player"):
            self.add_error("player", _("Choose the member, by number or name."))
        if data.get("resolution") == "new":
            for name in ("number", "first_name", "last_name"):
                if not (data.get(name) or "").strip():
                    self.add_error(name, _("A new member needs a registration number and both names."))
        return data


class ProvisionalCreditForm(MemberChoiceForm):
    """The member a provisional player is (two records of one person): chosen by number or name."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].required = True
