"""The Celery tasks of the ledger's workflows, for ``app.autodiscover_tasks()`` (which imports ``<app>.tasks``
only): a worker registers every workflow's tasks, also those nothing else imports (the title e-mails', the
monthly statements'), so a task queued by name, by beat or the outbox, is never ``NotRegistered``.
``tests/config/test_celery.py`` checks every beat entry against what a worker registers."""

from masterpoints.notices import tasks as notices_tasks
from masterpoints.office_queue import tasks as office_queue_tasks
from masterpoints.standings import tasks as standings_tasks
from masterpoints.title_mail import tasks as title_mail_tasks
from masterpoints.uploads import tasks as uploads_tasks

__all__ = ["notices_tasks", "office_queue_tasks", "standings_tasks", "title_mail_tasks", "uploads_tasks"]
