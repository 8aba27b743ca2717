"""Forms of the HBS transition page (``masterpoints.transition.views``): the imports of transition rules 1, 3
and 4 and the what-if parameters of rule 8."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput

#: The imports of the page: (value, label); the services are ``masterpoints.transition.services.IMPORTS``.
IMPORT_CHOICES = [
    ("opening", _("Rule 1: opening black points (CSV number,black)")),
    ("held-1991", _("Rule 3: categories held in 1991 (CSV number,category)")),
    ("keep-categories", _("Rule 4: old categories kept (CSV number,category)")),
]
#: The transition's lists are small; the limit of the results upload is far above them.
MAX_BYTES = settings.RESULTS_UPLOAD_MAX_BYTES


class TransitionImportForm(forms.Form):
    """One of the transition's imports: which, the file, and the date the entries carry."""

    action = forms.ChoiceField(label=_("Import"), choices=IMPORT_CHOICES)
    file = forms.FileField(label=_("File (CSV, UTF-8)"))
    on = forms.DateField(
        label=_("Date of the entries"),
        required=False,
        help_text=_("Empty: today."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean_file(self):
        """The uploaded list, refused above the results upload's size limit."""
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s MB; at most %(limit)s MB is accepted."),
                params={"size": f"{upload.size / 1024 / 1024:.1f}", "limit": MAX_BYTES // 1024 // 1024},
            )
        return upload


class WhatIfForm(forms.Form):
    """Transition rule 8: the parameters to replay the stored results under (all optional)."""

    strength_black = DecimalInput(
        label=_("S for black points"), required=False, min_value=0, max_digits=6, decimal_places=3
    )
    strength_red = DecimalInput(
        label=_("S for red points"), required=False, min_value=0, max_digits=6, decimal_places=3
    )
    strength_master = DecimalInput(
        label=_("S for master points"), required=False, min_value=0, max_digits=6, decimal_places=3
    )
    settings = forms.CharField(
        label=_("Other rule-set keys"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_('One KEY=VALUE per line, e.g. paid_share=0.4, paid_rounding=down, form_factors={"pairs": "1.5"}.'),
    )

    def lines(self) -> tuple[list[str], list[str]]:
        """(``KEY=VALUE`` lines, ``KIND=S`` lines) for ``what_if.what_if_parameters`` (transition rule 8)."""
        data = self.cleaned_data
        settings_lines = [line.strip() for line in data["settings"].splitlines() if line.strip()]
        strengths = [
            f"{kind}={data[f'strength_{kind}']}"
            for kind in ("black", "red", "master")
            if data[f"strength_{kind}"] is not None
        ]
        return settings_lines, strengths
