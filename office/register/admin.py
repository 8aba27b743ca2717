"""The register import page of the admin (Players → Import the member register): the secretariat checks a
file (a dry run, row by row) and imports it, for the federations it is secretariat of
(:func:`office.access.admin_scope`); the same service as ``manage.py import_register``."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from federation.models import Federation
from office.register.forms import RegisterImportForm
from office.register.services import register_import

#: The page lists at most this many changes (the counts are complete; the command prints every change).
SHOWN_CHANGES = 1000


def _imported_message(plan) -> str:
    """What an import wrote, and the link to the job record it was recorded as (issue 19)."""
    text = _("The register is imported: %(count)d changes written.") % {"count": len(plan.changes)}
    link = reverse("admin:federation_jobrun_change", args=[plan.job.pk])
    return format_html('{} <a href="{}">{}</a>', text, link, _("Open the import's job record"))


class RegisterImportMixin:
    """Adds the import page to the players' admin (a ``FederationScopedAdmin``)."""

    def get_urls(self):
        view = self.admin_site.admin_view(self.register_import_view)
        return [path("import-register/", view, name="federation_player_import_register"), *super().get_urls()]

    def register_import_view(self, request):
        """GET: the form. POST: a dry run ("Check"), or the import ("Import", ``apply`` in the POST)."""
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        served = self.write_scope(request)
        federations = Federation.objects.all() if served is None else Federation.objects.filter(pk__in=served)
        form = RegisterImportForm(request.POST or None, request.FILES or None, federations=federations)
        plan, dry_run = None, "apply" not in request.POST
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                plan = register_import(
                    actor=request.user, federation=data["federation"], data=data["file"].read(), dry_run=dry_run
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error("file", message)
            except PermissionDenied as error:
                form.add_error("federation", str(error))
            else:
                if not dry_run:
                    self.message_user(request, _imported_message(plan), messages.SUCCESS)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import the member register"),
            "opts": self.model._meta,
            "form": form,
            "plan": plan,
            "dry_run": dry_run,
            "shown": plan.changes[:SHOWN_CHANGES] if plan else [],
            "shown_limit": SHOWN_CHANGES,
        }
        return TemplateResponse(request, "admin/office/register_import.html", context)
