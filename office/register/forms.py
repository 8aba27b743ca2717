"""The forms of the register import page (``office.register.admin``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from office.register.plan import ADD, SYNC
from office.register.reader import MAX_BYTES

MODE_CHOICES = [
    (ADD, _("Add and update: bring in what the file holds; end nothing it does not hold")),
    (SYNC, _("Full sync: the file is the whole register; what it does not hold is ended")),
]


class RegisterImportForm(forms.Form):
    """Which federation (those the user is secretariat of), how to import, and the register file (CSV or XLSX).
    Checking it is the only way to import it: the import runs the checked file (:class:`RegisterApplyForm`)."""

    federation = forms.ModelChoiceField(label=_("Federation"), queryset=None, empty_label=None)
    mode = forms.ChoiceField(label=_("How to import"), choices=MODE_CHOICES, initial=ADD, widget=forms.RadioSelect)
    file = forms.FileField(
        label=_("Register file (CSV UTF-8 or XLSX)"),
        help_text=_("The layout: static/register-templates/README.md. Checking writes nothing; the import follows."),
    )

    def __init__(self, *args, federations, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["federation"].queryset = federations

    def clean_file(self):
        """The file, refused above :data:`~office.register.reader.MAX_BYTES` before it is read."""
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s MB; at most %(limit)s MB is accepted."),
                params={"size": f"{upload.size / 1024 / 1024:.1f}", "limit": MAX_BYTES // 1024 // 1024},
            )
        return upload


class RegisterCheckedForm(forms.Form):
    """A checked file named by its hash, with its mode (the details' pages, their download and the import);
    ``confirm_ends`` is the number of rows a full sync ends, as its summary showed them."""

    federation = forms.ModelChoiceField(queryset=None, widget=forms.HiddenInput)
    sha = forms.RegexField(regex=r"^[0-9a-f]{64}$", widget=forms.HiddenInput)
    mode = forms.ChoiceField(choices=MODE_CHOICES, widget=forms.HiddenInput)
    confirm_ends = forms.IntegerField(required=False, min_value=0, max_value=10_000_000)

    def __init__(self, *args, federations, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["federation"].queryset = federations
