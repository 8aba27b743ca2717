"""Sanction pages (§ 403B): clubs apply, districts recommend or grant, everyone concerned follows the case.

The secretariat decides in the admin (``tournaments.sanctions.admin``); it may also use these pages.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation.schemes import codes_with
from office.access import can_act_for_club, can_act_for_region, clubs_for, is_secretariat
from office.models import Officer
from tournaments.models import SanctionApplication
from tournaments.sanctions.forms import DecideForm, RecommendForm, SanctionApplicationForm
from tournaments.sanctions.rules import FIELDS
from tournaments.sanctions.selectors import sanction_used_by
from tournaments.sanctions.services import sanction_apply, sanction_decide, sanction_recommend


def _application_for(request, pk: int) -> SanctionApplication:
    """The one access check for an application: its club's directors, its district's officers, the secretariat."""
    application = get_object_or_404(
        SanctionApplication.objects.select_related("club", "district", "federation", "playing_time"), pk=pk
    )
    user = request.user
    if not (can_act_for_club(user, application.club) or can_act_for_region(user, application.district)):
        raise PermissionDenied(_("This sanction application belongs to another club or district."))
    return application


def _may_decide(user, application: SanctionApplication) -> bool:
    """Whether the page offers ``user`` the decision: SP within the quota to the district (§ 403B4), the rest to
    the secretariat once the district has recommended it (§ 403B7); never a decided application."""
    if application.status in (SanctionApplication.Status.APPROVED, SanctionApplication.Status.REFUSED):
        return False
    if application.secretariat_decides:
        return application.status == SanctionApplication.Status.RECOMMENDED and is_secretariat(
            user, application.federation
        )
    return can_act_for_region(user, application.district)


@login_required
def application_list(request):
    """Applications of the clubs the user directs and of the districts they serve (all, for the secretariat)."""
    user = request.user
    districts = Officer.objects.filter(user=user, role=Officer.Role.REGION_OFFICER).values("region")
    staff = Officer.objects.filter(user=user, role=Officer.Role.SECRETARIAT).values("federation")
    visible = Q(club__in=clubs_for(user)) | Q(district__in=districts) | Q(federation__in=staff)
    applications = (
        SanctionApplication.objects.all() if user.is_superuser else SanctionApplication.objects.filter(visible)
    )
    return render(
        request,
        "tournaments/sanctionapplication_list.html",
        {
            "applications": applications.select_related("club", "district").order_by("-date"),
            "may_apply": clubs_for(user).filter(federation__scheme__in=codes_with("sanctions")).exists(),
        },
    )


@login_required
def application_new(request):
    """A club director files an application for SP or GP (§ 403B); every unmet condition is shown."""
    clubs = clubs_for(request.user).filter(federation__scheme__in=codes_with("sanctions"), active=True).order_by("name")
    if not clubs.exists():
        raise PermissionDenied(_("Only a club's directors apply for its sanctions."))
    form = SanctionApplicationForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            application = sanction_apply(actor=request.user, **data)
        except ValidationError as error:
            for problem in error.error_list:
                form.add_error(FIELDS.get(problem.code), problem)
        else:
            messages.success(
                request, _("The application was filed with %(district)s.") % {"district": application.district}
            )
            return redirect(application)
    return render(request, "tournaments/sanctionapplication_form.html", {"form": form})


@login_required
def application_detail(request, pk: int):
    """One application with its history, the tournament its sanction paid (D-Q24), and the step the user may
    take now: the district's recommendation (§ 403B7) or the decision (§ 403B4, § 403B7)."""
    application = _application_for(request, pk)
    user = request.user
    sanction = getattr(application, "sanction", None)
    may_recommend = (
        application.status == SanctionApplication.Status.FILED
        and application.secretariat_decides
        and can_act_for_region(user, application.district)
    )
    return render(
        request,
        "tournaments/sanctionapplication_detail.html",
        {
            "application": application,
            "recommend_form": RecommendForm() if may_recommend else None,
            "decide_form": DecideForm() if _may_decide(user, application) else None,
            "sanction": sanction,
            "used_by": sanction_used_by(sanction) if sanction is not None else None,
        },
    )


@login_required
@require_POST
def application_recommend(request, pk: int):
    """The district recommends an application to the secretariat, or not (§ 403B7); refusals are shown."""
    application = _application_for(request, pk)
    form = RecommendForm(request.POST)
    if form.is_valid():
        try:
            sanction_recommend(actor=request.user, application=application, **form.cleaned_data)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The recommendation went to the secretariat."))
    else:
        messages.error(request, _("Choose whether the district recommends the application."))
    return redirect(application)


@login_required
@require_POST
def application_decide(request, pk: int):
    """The district or the secretariat approves or refuses an application (§ 403B4, § 403B7)."""
    application = _application_for(request, pk)
    form = DecideForm(request.POST)
    if form.is_valid():
        try:
            sanction_decide(actor=request.user, application=application, **form.cleaned_data)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The decision was recorded and sent to the club."))
    else:
        messages.error(request, _("Choose approve or refuse."))
    return redirect(application)
