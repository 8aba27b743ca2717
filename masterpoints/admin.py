"""The admin of the ledger's workflows; each package registers its own models."""

from masterpoints.corrections import admin as corrections_admin
from masterpoints.cups import admin as cups_admin
from masterpoints.foreign import admin as foreign_admin
from masterpoints.jobs import admin as jobs_admin
from masterpoints.office_queue import admin as office_queue_admin
from masterpoints.standings import admin as standings_admin
from masterpoints.title_mail import admin as title_mail_admin
from masterpoints.uploads import admin as uploads_admin

__all__ = [
    "corrections_admin",
    "cups_admin",
    "foreign_admin",
    "jobs_admin",
    "office_queue_admin",
    "standings_admin",
    "title_mail_admin",
    "uploads_admin",
]
