"""The job records in the admin: read-only, scoped to the user's federations, newest first, with
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


#: What a job's figures count, in words (not the stored keys), first by the job's kind where the same
#: key counts different things (``sent``: club mails or players' statements). A key not named here is shown
#: with its underscores as spaces (the register import's ``players_added``).
FIGURE_LABELS = {
    "players_changed": gettext_lazy("players whose standing changed"),
    "standings_written": gettext_lazy("standings written"),
    "titles_registered": gettext_lazy("titles or categories registered"),
    "queued": gettext_lazy("club mails queued"),
    "already_queued": gettext_lazy("club mails queued before"),
    "busy": gettext_lazy("clubs another run was mailing"),
    "failed": gettext_lazy("mails that failed"),
    "announced": gettext_lazy("titles announced"),
    "homeless": gettext_lazy("new titles without a home club"),
    "unchanged": gettext_lazy("rows unchanged"),
    "waiting": gettext_lazy("rows waiting"),
}
FIGURE_LABELS_BY_KIND = {
    JobRun.Kind.TITLE_MAIL: {
        "already_sent": gettext_lazy("club mails sent before"),
        "nothing": gettext_lazy("clubs with nothing to announce"),
        "sent": gettext_lazy("mails sent"),
    },
    JobRun.Kind.PLAYER_NOTICES: {
        "already_sent": gettext_lazy("statements sent before"),
        "nothing": gettext_lazy("players with nothing registered"),
        "sent": gettext_lazy("statements sent"),
        "no_address": gettext_lazy("players without an e-mail address"),
    },
}


def figure_label(key: str, kind: str = "") -> str:
    label = FIGURE_LABELS_BY_KIND.get(kind, {}).get(key) or FIGURE_LABELS.get(key)
    return str(label) if label else key.replace("_", " ")


def duration_words(seconds: float) -> str:
    """A job's duration as a reader says it: "under a second", "42 s", "3 min 5 s", "1 h 2 min"."""
    whole = int(seconds)
    if whole < 1:
        return _("under a second")
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    if hours:
        return _("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}
    if minutes:
        return _("%(minutes)d min %(seconds)d s") % {"minutes": minutes, "seconds": rest}
    return _("%(seconds)d s") % {"seconds": rest}


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
        return duration_words(obj.duration.total_seconds())

    @admin.display(description=gettext_lazy("progress"))
    def progress_shown(self, obj):
        counted = f" {obj.done} / {obj.total}" if obj.total is not None else ""
        return f"{obj.stage}{counted}".strip() if obj.status == JobRun.Status.RUNNING else "–"

    @admin.display(description=gettext_lazy("figures"))
    def figures_shown(self, obj):
        figures = obj.figures if isinstance(obj.figures, dict) else {}
        shown = [(figure_label(key, obj.kind), value) for key, value in figures.items()]
        return format_html_join(", ", "{}: {}", shown) or "–"

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
