"""The job records in the admin (issue 19): read-only, scoped to the user's federations, newest first, with
their duration, progress and figures; and the two jobs the secretariat starts from here: "rebuild the
standings" (``masterpoints.standings.admin``) and "send the title e-mails now" (a dry run first, then a
confirmation that queues the run). Each view asks the secretariat of the federation chosen (or a
superuser): POST with CSRF for everything that starts a job."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.admin_base import ReadOnlyAdmin
from federation.models import Federation, JobRun
from masterpoints.title_mail.jobs import title_mail_preview, title_mail_request
from masterpoints.title_mail.services import month_parse
from office.access import federations_served
from office.models import Officer


def secretariat_federations(user):
    """The federations whose jobs ``user`` may start: those they are secretariat of (a superuser: all)."""
    return federations_served(user, roles=(Officer.Role.SECRETARIAT,)).order_by("name")


class TitleMailForm(forms.Form):
    federation = forms.ModelChoiceField(label=gettext_lazy("Federation"), queryset=Federation.objects.none())
    month = forms.CharField(label=gettext_lazy("Month (YYYY-MM)"), max_length=7)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["federation"].queryset = secretariat_federations(user)
        self.fields["month"].initial = timezone.localdate().strftime("%Y-%m")

    def clean_month(self):
        return month_parse(self.cleaned_data["month"])


@admin.register(JobRun)
class JobRunAdmin(ReadOnlyAdmin):
    list_display = ["started_at", "kind", "federation", "status", "actor", "duration_shown", "progress_shown"]
    list_filter = ["kind", "status", "federation"]
    list_select_related = ["federation", "actor"]
    date_hierarchy = "started_at"
    fields = [
        "kind",
        "federation",
        "actor",
        "started_at",
        "finished_at",
        "heartbeat_at",
        "duration_shown",
        "status",
        "message",
        "progress_shown",
        "figures_shown",
    ]
    readonly_fields = ["duration_shown", "progress_shown", "figures_shown"]

    @admin.display(description=gettext_lazy("duration"))
    def duration_shown(self, obj):
        seconds = int(obj.duration.total_seconds())
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    @admin.display(description=gettext_lazy("progress"))
    def progress_shown(self, obj):
        counted = f" {obj.done} / {obj.total}" if obj.total is not None else ""
        return f"{obj.stage}{counted}".strip() if obj.status == JobRun.Status.RUNNING else "–"

    @admin.display(description=gettext_lazy("figures"))
    def figures_shown(self, obj):
        figures = obj.figures if isinstance(obj.figures, dict) else {}
        return format_html_join(", ", "{}: {}", sorted(figures.items())) or "–"

    def changelist_view(self, request, extra_context=None):
        extra = {"job_federations": secretariat_federations(request.user), **(extra_context or {})}
        return super().changelist_view(request, extra_context=extra)

    def get_urls(self):
        view = self.admin_site.admin_view(self.title_mail_view)
        return [path("title-mail/", view, name="federation_jobrun_title_mail"), *super().get_urls()]

    def title_mail_view(self, request):
        """GET: the form. POST ``check``: the dry run (sends nothing) and a confirmation button. POST ``send``:
        the run recorded as a job and queued; the page of the job follows."""
        if not secretariat_federations(request.user).exists():
            raise PermissionDenied
        form = TitleMailForm(request.POST or None, user=request.user)
        report = None
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                if "send" in request.POST:
                    job = title_mail_request(actor=request.user, federation=data["federation"], month=data["month"])
                    return redirect("admin:federation_jobrun_change", job.pk)
                report = title_mail_preview(actor=request.user, federation=data["federation"], month=data["month"])
            except ValidationError as refused:
                for message in refused.messages:
                    form.add_error(None, message)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Send the title e-mails now"),
            "opts": self.model._meta,
            "form": form,
            "report": report,
        }
        return TemplateResponse(request, "admin/federation/jobrun/title_mail.html", context)
