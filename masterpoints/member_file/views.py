"""Downloads of the member file (``masterpoints.member_file``): a club's for its directors and the
secretariat, a whole federation's for its secretariat; CSV or XLSX; each download audited."""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.models import Club
from federation.exports import csv_write, xlsx_append
from federation.models import Federation
from masterpoints.member_file.selectors import member_file_rows
from masterpoints.member_file.services import member_file_download_record
from office.access import can_act_for_club, is_secretariat

FORMATS = ("csv", "xlsx")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@require_GET
@login_required
def club_file(request, pk: int, fmt: str):
    """A club's current members, for the club's directors and its federation's secretariat."""
    club = get_object_or_404(Club.objects.select_related("federation"), pk=pk)
    if not can_act_for_club(request.user, club):
        raise PermissionDenied(
            _("The member file of %(club)s is for its directors and the secretariat.") % {"club": club}
        )
    return _download(request, club.federation, club, fmt, f"members-{club.federation.code}-{club.number}")


@require_GET
@login_required
def federation_file(request, code: str, fmt: str):
    """Every member and guest of the federation, for its secretariat."""
    federation = get_object_or_404(Federation, code=code)
    if not is_secretariat(request.user, federation):
        raise PermissionDenied(
            _("The member file of %(federation)s is for its secretariat.") % {"federation": federation}
        )
    return _download(request, federation, None, fmt, f"members-{federation.code}")


def _download(request, federation: Federation, club: Club | None, fmt: str, name: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404(_("The member file comes as csv or xlsx."))
    rows = member_file_rows(federation=federation, club=club, on=timezone.localdate())
    member_file_download_record(actor=request.user, federation=federation, club=club, fmt=fmt, rows=len(rows) - 1)
    if fmt == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response.write("\ufeff")  # so spreadsheet programs read the file as UTF-8
        csv_write(response, rows)
    else:
        from openpyxl import Workbook

        workbook = Workbook(write_only=True)
        sheet = workbook.create_sheet(_("Members"))
        for row in rows:
            xlsx_append(sheet, row)
        buffer = io.BytesIO()
        workbook.save(buffer)
        response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
