"""The Celery tasks of the ledger's workflows, for ``app.autodiscover_tasks()`` (which imports ``<app>.tasks``
only): a worker registers every workflow's tasks, also those nothing else imports (the title e-mails'),
so a task queued by name is never ``NotRegistered``."""

from masterpoints.standings import tasks as standings_tasks
from masterpoints.title_mail import tasks as title_mail_tasks

__all__ = ["standings_tasks", "title_mail_tasks"]
