"""The form of the register import page (``office.register.admin``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from office.register.reader import MAX_BYTES


class RegisterImportForm(forms.Form):
    """Which federation (those the user is secretariat of) and the register file (CSV or XLSX)."""

    federation = forms.ModelChoiceField(label=_("Federation"), queryset=None, empty_label=None)
    file = forms.FileField(
        label=_("Register file (CSV UTF-8 or XLSX)"),
        help_text=_("The layout: static/register-templates/README.md. Check it first; to import, choose it again."),
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
