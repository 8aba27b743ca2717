"""The register import page of the admin (Players → Import the member register), for the federations the user
is secretariat of (:func:`office.access.admin_scope`); the same service as ``manage.py import_register``.

The mode is chosen explicitly (add and update by default, or full sync); "Check" keeps the file
by its hash and shows the dry run's summary first (counts per kind, the largest effects named) with the details
paged and downloadable; "Import" then runs the checked file, never a second upload, and a full sync that ends
anything only with its summary confirmed. The current register is exported in the import's own layout.
"""

from __future__ import annotations

import csv
import io
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from federation.models import Federation
from office.register.export import register_export
from office.register.forms import RegisterCheckedForm, RegisterImportForm
from office.register.plan import SYNC
from office.register.services import register_import
from office.register.stored import register_file_keep, register_file_kept

#: Rows of the details per page (the counts are complete; the download and the command list every change).
DETAILS_PAGE = 100


def _imported_message(plan) -> str:
    """What an import wrote, and the link to the job record it was recorded as."""
    text = _("The register is imported: %(count)d changes written.") % {"count": len(plan.changes)}
    link = reverse("admin:federation_jobrun_change", args=[plan.job.pk])
    return format_html('{} <a href="{}">{}</a>', text, link, _("Open the import's job record"))


def _details_csv(plan) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["line", "record", "key", "action", "field", "before", "after"])
    for change in plan.changes:
        for name, old, new in change.fields or [("", "", "")]:
            writer.writerow([change.line or "", change.record, change.key, change.action, name, old, new])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


class RegisterImportMixin:
    """Adds the import and export pages to the players' admin (a ``FederationScopedAdmin``)."""

    def get_urls(self):
        view = self.admin_site.admin_view(self.register_import_view)
        export = self.admin_site.admin_view(self.register_export_view)
        return [
            path("import-register/", view, name="federation_player_import_register"),
            path("export-register/", export, name="federation_player_export_register"),
            *super().get_urls(),
        ]

    def _federations(self, request):
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        served = self.write_scope(request)
        return Federation.objects.all() if served is None else Federation.objects.filter(pk__in=served)

    def register_export_view(self, request):
        """The register of the federation chosen (``?federation=``, else the first served) as a CSV file."""
        federations = self._federations(request)
        chosen = request.GET.get("federation", "")
        federation = (federations.filter(pk=int(chosen)) if chosen.isdecimal() else federations).first()
        if federation is None:
            raise PermissionDenied
        response = HttpResponse(register_export(federation=federation), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="register-{federation.code}.csv"'
        return response

    def register_import_view(self, request):
        """POST ``check``: keep the file, show the dry run. GET with a checked file: another page of the details,
        or (``download``) all of them. POST ``apply``: import the checked file."""
        federations = self._federations(request)
        form = RegisterImportForm(
            request.POST if "check" in request.POST else None, request.FILES or None, federations=federations
        )
        checked = RegisterCheckedForm(
            request.POST if "apply" in request.POST else (request.GET if "sha" in request.GET else None),
            federations=federations,
        )
        plan = None
        if "check" in request.POST and form.is_valid():
            data = form.cleaned_data
            content = data["file"].read()
            sha = register_file_keep(federation=data["federation"], data=content)
            plan = self._plan(request, form, data["federation"], content, data["mode"], field="file")
            checked = RegisterCheckedForm(
                initial={"federation": data["federation"].pk, "sha": sha, "mode": data["mode"]},
                federations=federations,
            )
        elif checked.is_bound and checked.is_valid():
            data = checked.cleaned_data
            try:
                content = register_file_kept(federation=data["federation"], sha=data["sha"])
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                if "apply" in request.POST:
                    return self._apply(request, form, data, content)
                plan = self._plan(request, form, data["federation"], content, data["mode"], field=None)
                if plan is not None and "download" in request.GET:
                    response = HttpResponse(_details_csv(plan), content_type="text/csv; charset=utf-8")
                    response["Content-Disposition"] = f'attachment; filename="register-check-{data["sha"][:12]}.csv"'
                    return response
        return self._page(request, form, checked, plan)

    def _plan(self, request, form, federation, content: bytes, mode: str, *, field):
        try:
            return register_import(actor=request.user, federation=federation, data=content, dry_run=True, mode=mode)
        except (ValidationError, PermissionDenied) as error:
            text = getattr(error, "messages", None) or [str(error)]
            if form.is_bound:
                for message in text:
                    form.add_error(field if isinstance(error, ValidationError) else "federation", message)
            else:
                messages.error(request, " ".join(text))
        return None

    def _apply(self, request, form, data, content: bytes):
        try:
            plan = register_import(
                actor=request.user,
                federation=data["federation"],
                data=content,
                dry_run=False,
                mode=data["mode"],
                confirm_ends=data.get("confirm_ends"),
            )
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
            query = f"?federation={data['federation'].pk}&sha={data['sha']}&mode={data['mode']}"
            return redirect(reverse("admin:federation_player_import_register") + query)
        self.message_user(request, _imported_message(plan), messages.SUCCESS)
        return redirect("admin:federation_player_import_register")

    def _page(self, request, form, checked, plan):
        details = None
        if plan is not None:
            details = Paginator(plan.changes, DETAILS_PAGE).get_page(request.GET.get("page"))
        query = ""
        if plan is not None:
            data = checked.initial if not checked.is_bound else {**checked.cleaned_data}
            federation = data["federation"]
            federation = getattr(federation, "pk", federation)
            query = urlencode({"federation": federation, "sha": data["sha"], "mode": data["mode"]})
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import the member register"),
            "opts": self.model._meta,
            "form": form,
            "checked": checked,
            "plan": plan,
            "full_sync": plan is not None and plan.mode == SYNC,
            "details": details,
            "query": query,
        }
        return TemplateResponse(request, "admin/office/register_import.html", context)
