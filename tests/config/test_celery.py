"""Celery: eager without REDIS_URL; a real worker on Redis with it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from federation.tasks import ping

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.redis
def test_tasks_run_in_process_when_no_broker_is_configured():
    if settings.REDIS_URL:
        pytest.skip("REDIS_URL is set: tasks go to the real broker (covered by the worker round-trip test)")
    assert settings.CELERY_TASK_ALWAYS_EAGER
    assert ping.delay().get(timeout=1) == "pong"


@pytest.mark.redis
def test_a_task_round_trips_through_a_real_worker_on_redis():
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no broker to send the task through (.ci/run sets it)")
    queue = f"test-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "-Q",
            queue,
            "--loglevel=WARNING",
        ],
        cwd=REPO_ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        result = ping.apply_async(queue=queue)
        assert result.get(timeout=60) == "pong"
        assert result.successful()
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def test_a_worker_registers_the_task_of_every_beat_entry_and_of_the_outbox():
    """Issue 33, hole 4: what ``celery -A config worker`` registers, read in a fresh interpreter as a worker
    starts (its loader imports the apps' task modules; nothing of the tests is imported), covers every beat
    entry and the outbox's drain. Eager tests cannot see a task that only a real worker misses."""
    script = (
        "import json\n"
        "from config.celery import app\n"
        "from django.conf import settings\n"
        "app.loader.import_default_modules()\n"
        "beat = sorted({entry['task'] for entry in settings.CELERY_BEAT_SCHEDULE.values()})\n"
        "print(json.dumps({'beat': beat, 'registered': sorted(app.tasks)}))\n"
    )
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    environment.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, env=environment, capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["beat"], "the beat schedule names tasks"
    missing = [name for name in [*found["beat"], "federation.tasks.outbox_drain"] if name not in found["registered"]]
    assert missing == []
