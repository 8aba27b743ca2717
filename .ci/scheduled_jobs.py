"""CI: every scheduled job, proven on a real worker and a real beat started by the README's commands
(``make worker``, ``make beat``) against PostgreSQL and Redis (issue 33, hole 4).

    .venv/bin/python .ci/scheduled_jobs.py WORKER_LOG BEAT_LOG

The worker and beat are already running, writing their logs to WORKER_LOG and BEAT_LOG. This script asks the
worker what it registered, sends every beat entry's task once by name, as beat does, and waits until the
worker's log says each one succeeded; it also waits for beat to send a due task of its own. It exits 1 naming
each task that is unregistered, failed or silent. It prints ``name=value`` figures.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402

from config.celery import app  # noqa: E402

WAIT_SECONDS = 300


def registered_on_worker() -> set[str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = app.control.inspect(timeout=2).registered() or {}
        if replies:
            return {name.split(" ", 1)[0] for names in replies.values() for name in names}
        time.sleep(1)
    sys.exit("no worker answered within 60 s: did `make worker` start?")


def main(worker_log: Path, beat_log: Path) -> int:
    beat_tasks = sorted({entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()})
    registered = registered_on_worker()
    unregistered = [name for name in beat_tasks if name not in registered]
    sent = {app.send_task(name).id: name for name in beat_tasks if name in registered}
    deadline = time.monotonic() + WAIT_SECONDS
    finished: dict[str, str] = {}
    beat_sent = False
    while time.monotonic() < deadline and (len(finished) < len(sent) or not beat_sent):
        log = worker_log.read_text(errors="replace")
        for task_id, name in sent.items():
            match = re.search(rf"Task {re.escape(name)}\[{task_id}\] (succeeded|raised|failed)", log)
            if match:
                finished[name] = match.group(1)
        beat_sent = "Sending due task" in beat_log.read_text(errors="replace")
        time.sleep(2)
    failed = sorted(name for name, outcome in finished.items() if outcome != "succeeded")
    silent = sorted(set(sent.values()) - set(finished))
    print(f"beat_entries={len(beat_tasks)}")
    print(f"registered_on_worker={len(beat_tasks) - len(unregistered)}")
    print(f"ran_once_succeeded={sum(outcome == 'succeeded' for outcome in finished.values())}")
    print(f"beat_sent_a_due_task={int(beat_sent)}")
    for label, names in (("unregistered", unregistered), ("failed", failed), ("silent", silent)):
        for name in names:
            print(f"{label}: {name}")
    return 1 if unregistered or failed or silent or not beat_sent else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
