"""The table rule book's upload form: the fields every rule book asks, and TP as the only kind (rule 3)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from masterpoints.uploads.forms import ResultUploadForm


class TableUploadForm(ResultUploadForm):
    """The upload form of a federation under the table rule book: it awards table points, nothing else."""

    category_choices = (("TP", _("table points (TP)")),)
