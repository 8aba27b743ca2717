"""The e-mails of the sanction workflow (§ 403B7): each step goes to whoever acts next and back to the club;
the decision goes to the club with a copy to the district. Sent after the step's transaction commits
(``federation.mail.notify``)."""

from __future__ import annotations

from federation.mail import club_language, notify
from federation.models import Federation, Region
from office.models import Officer
from tournaments.models import Sanction, SanctionApplication


def mail_filed(application: SanctionApplication) -> None:
    """A filed application goes to the district's officers (§ 403B7), and its receipt to the club."""
    context = {"application": application}
    notify(
        template="sanction_filed_district",
        to=_region_officer_emails(application.district),
        language=application.club.federation.default_language,
        context=context,
    )
    notify(
        template="sanction_filed",
        to=_club_emails(application),
        language=club_language(application.club),
        context=context,
    )


def mail_recommended(application: SanctionApplication) -> None:
    """The district's recommendation goes to the secretariat, which decides (§ 403B7), and to the club."""
    context = {"application": application}
    notify(
        template="sanction_recommended",
        to=_secretariat_emails(application.federation),
        language=application.federation.default_language,
        context=context,
    )
    notify(
        template="sanction_recommended_club",
        to=_club_emails(application),
        language=club_language(application.club),
        context=context,
    )


def mail_decided(application: SanctionApplication, sanction: Sanction | None) -> None:
    """The decision goes to the club with a copy to the district (§ 403B7); ``sanction`` when approved."""
    notify(
        template="sanction_decided",
        to=_club_emails(application),
        cc=_region_officer_emails(application.district),
        language=club_language(application.club),
        context={"application": application, "sanction": sanction},
    )


def _club_emails(application: SanctionApplication) -> list[str]:
    """The application's contact, the club's address and whoever filed it (empty ones are dropped later)."""
    filer = application.filed_by.email if application.filed_by else ""
    return [application.contact_email, application.club.email, filer]


def _region_officer_emails(region: Region) -> list[str]:
    """The officers of the district the application was filed with (§ 403B7)."""
    return list(
        Officer.objects.filter(role=Officer.Role.REGION_OFFICER, region=region).values_list("user__email", flat=True)
    )


def _secretariat_emails(federation: Federation) -> list[str]:
    """The federation's contact address and its secretariat's officers."""
    offices = Officer.objects.filter(role=Officer.Role.SECRETARIAT, federation=federation)
    return [federation.contact_email, *offices.values_list("user__email", flat=True)]
