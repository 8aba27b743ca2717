"""Federation-wide Celery tasks."""

from celery import shared_task


@shared_task(name="federation.tasks.ping")
def ping() -> str:
    """Answer ``"pong"``: proves that the broker delivers and a worker runs (``manage.py check_worker``)."""
    return "pong"
