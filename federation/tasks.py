"""Federation-wide Celery tasks."""

from celery import shared_task

from federation import health, outbox


@shared_task(name="federation.tasks.ping")
def ping() -> str:
    """Answer ``"pong"`` and record the run for ``/health/`` (beat's ``worker-heartbeat``): proves that beat
    publishes, the broker delivers and a worker runs."""
    health.beat_record()
    return "pong"


@shared_task(name=outbox.DRAIN_TASK, ignore_result=True)
def outbox_drain(ids: list[int] | None = None) -> dict[str, int]:
    """Send the outbox's due e-mails and tasks: after each commit that wrote some (``ids``: those), and every
    minute by beat (every due entry: whatever a broker or SMTP outage kept from going out). Safe to run any
    number of times at once: each entry is claimed by one drain. Retries are the outbox's own (none here)."""
    return outbox.outbox_drain(ids=ids)
