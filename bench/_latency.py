"""The standings benchmark's servers and clients (``bench/standings.py``): gunicorn on 127.0.0.1 with the bench
settings (``_standings_site``: the site plus a trivial view), a real Celery worker on Redis, and bounded
client threads. Every process started here is stopped by the context manager that started it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field

from _django import ROOT

BENCH = ROOT / "bench"
#: The made-up client addresses handed out so far (:func:`client_address`): each request names a new one.
_ADDRESSES = itertools.count()
#: Port → the pid of the gunicorn master serving it (while :func:`gunicorn` runs).
MASTERS: dict[int, int] = {}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def site_env(*, cache_url: str, broker_url: str = "") -> dict[str, str]:
    """The environment of the bench's gunicorn and worker: the bench's test database, the cache, the broker."""
    from django.db import connection

    s = connection.settings_dict
    database = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "_standings_site",
        "PYTHONPATH": f"{BENCH}{os.pathsep}{ROOT}",
        "DATABASE_URL": database,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DB_CONN_MAX_AGE": "600",
        "LOG_LEVEL": "WARNING",
        "CACHE_URL": cache_url,
        # One proxy in front (the bench's clients): a client that names its address in X-Forwarded-For is
        # counted as that address by the per-address limits (the lists' readers); one that names none, as
        # the connection's own.
        "TRUSTED_PROXY_COUNT": "1",
    }
    env.pop("REDIS_URL", None)
    if broker_url:
        env["REDIS_URL"] = broker_url
    return env


@contextlib.contextmanager
def gunicorn(*, workers: int, cache_url: str):
    """Gunicorn with ``workers`` sync workers on a free port (yields the port), static files collected."""
    static = tempfile.mkdtemp(prefix="bench-static-")
    env = {**site_env(cache_url=cache_url), "STATIC_ROOT": static}
    if cache_url:
        import redis

        redis.Redis.from_url(cache_url).flushdb()
    manage = [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v0"]
    subprocess.run(manage, env=env, check=True, cwd=ROOT)
    port = free_port()
    command = [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen([*command, "--workers", str(workers), "--log-level", "warning"], env=env, cwd=ROOT)
    MASTERS[port] = server.pid
    try:
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/trivial", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        yield port
    finally:
        MASTERS.pop(port, None)
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(static, ignore_errors=True)


@contextlib.contextmanager
def celery_worker(*, broker_url: str, cache_url: str):
    """A real ``celery -A config worker`` on ``broker_url`` (emptied first), and this process's Celery app
    switched from eager to that broker while it runs (restored after)."""
    import redis
    from celery import current_app

    redis.Redis.from_url(broker_url).flushdb()
    env = {**site_env(cache_url=cache_url, broker_url=broker_url), "DJANGO_SETTINGS_MODULE": "config.settings"}
    command = [str(ROOT / ".venv" / "bin" / "celery"), "-A", "config", "worker", "--concurrency", "2"]
    command += ["--loglevel", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    worker = subprocess.Popen(command, env=env, cwd=ROOT)
    saved = {key: current_app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    current_app.conf.update(broker_url=broker_url, result_backend=None, task_always_eager=False)
    _forget_connections(current_app)
    try:
        for _ in range(60):
            if current_app.control.ping(timeout=1):
                break
        yield worker
    finally:
        current_app.conf.update(saved)
        _forget_connections(current_app)
        worker.terminate()
        worker.wait(timeout=60)


def _forget_connections(app) -> None:
    """Drop the app's cached broker connections and producers (made for the broker it had before)."""
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None


@dataclass
class Figures:
    p50_ms: float
    p95_ms: float
    rps: float
    requests: int
    errors: int
    #: Each request's seconds (for :meth:`pooled`).
    samples: list[float] = field(default_factory=list, repr=False)

    @classmethod
    def pooled(cls, *runs: Figures) -> Figures:
        """The runs' requests taken together: p50 and p95 over all of them, the mean throughput."""
        samples = [sample for run in runs for sample in run.samples]
        if not samples:
            return cls(0.0, 0.0, 0.0, 0, sum(run.errors for run in runs))
        return cls(
            statistics.median(samples) * 1000,
            p95(samples) * 1000,
            statistics.fmean(run.rps for run in runs),
            len(samples),
            sum(run.errors for run in runs),
            samples,
        )

    @classmethod
    def mean(cls, *runs: Figures) -> Figures:
        """The runs' mean figures (their requests and errors added up)."""
        return cls(
            statistics.fmean(run.p50_ms for run in runs),
            statistics.fmean(run.p95_ms for run in runs),
            statistics.fmean(run.rps for run in runs),
            sum(run.requests for run in runs),
            sum(run.errors for run in runs),
        )

    def line(self, label: str) -> str:
        return (
            f"  {label:34} p50 {self.p50_ms:6.1f} ms   p95 {self.p95_ms:6.1f} ms   {self.rps:7.1f} req/s   "
            f"{self.requests} requests, {self.errors} errors"
        )


class Steal:
    """The share of the machine's CPU time that went to other machines (the ``steal`` column of
    ``/proc/stat``) since this was made."""

    def __init__(self):
        self.start = self._ticks()

    @staticmethod
    def _ticks() -> tuple[int, int]:
        with open("/proc/stat") as source:
            fields = [int(value) for value in source.readline().split()[1:]]
        return fields[7], sum(fields[:8])

    def percent(self) -> float:
        (steal, total), (steal0, total0) = self._ticks(), self.start
        return 100 * (steal - steal0) / max(1, total - total0)


class DiskReads:
    """The megabytes the kernel read from disk (``pgpgin`` of ``/proc/vmstat``) since this was made: a run
    whose database was not in memory measures the disk, not the server."""

    def __init__(self):
        self.start = self._kilobytes()

    @staticmethod
    def _kilobytes() -> int:
        with open("/proc/vmstat") as source:
            return next((int(line.split()[1]) for line in source if line.startswith("pgpgin ")), 0)

    def megabytes(self) -> float:
        return (self._kilobytes() - self.start) / 1024


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)]


def load(
    port: int,
    paths: list[str],
    total: int,
    clients: int,
    seconds: float,
    *,
    unique: bool = False,
    stop: threading.Event | None = None,
    gzip: bool = True,
    in_order: bool = False,
    forwarded: bool = True,
) -> Figures:
    """``total`` GET requests from ``clients`` threads (stopping at ``seconds`` or at ``stop``); ``unique`` adds
    a parameter the page ignores, so that no two requests share a cache entry. ``gzip``: the clients accept a
    gzip-compressed answer, as browsers do (``Accept-Encoding``); they read it as it comes. ``in_order``: the
    n-th request asks for ``paths[n]`` (each once when ``total`` is their number), else a random one.
    ``forwarded``: each request names an address of its own (``X-Forwarded-For``), as many readers would: the
    per-address limits (the rendered lists', the API's) count readers, and a bench is not one reader."""
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))

    def client(index: int) -> None:
        nonlocal errors
        rng = random.Random(index)
        for number in counter:
            if time.monotonic() > deadline or (stop is not None and stop.is_set()):
                return
            path = paths[number % len(paths)] if in_order else rng.choice(paths)
            url = f"http://127.0.0.1:{port}{path}" + (f"{'&' if '?' in path else '?'}miss={number}" if unique else "")
            asked = {**headers, "X-Forwarded-For": client_address()} if forwarded else headers
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(urllib.request.Request(url, headers=asked), timeout=30) as response:
                    response.read()
                    ok = response.status == 200
            except OSError:
                ok = False
            latencies.append(time.perf_counter() - start)
            errors += not ok

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(client, range(clients)))
    elapsed = time.perf_counter() - start
    if not latencies:
        return Figures(0.0, 0.0, 0.0, 0, errors)
    return Figures(
        statistics.median(latencies) * 1000,
        p95(latencies) * 1000,
        len(latencies) / elapsed,
        len(latencies),
        errors,
        latencies,
    )


def client_address() -> str:
    """A made-up client address (10.0.0.0/8) no request of this run has named before (16 million)."""
    number = next(_ADDRESSES)
    return f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"


@contextlib.contextmanager
def background_load(port: int, paths: list[str], clients: int):
    """``clients`` threads loading ``paths`` until the block ends (yields nothing; at most 10 minutes)."""
    stop = threading.Event()
    runner = threading.Thread(target=load, args=(port, paths, 10**9, clients, 600), kwargs={"stop": stop})
    runner.start()
    try:
        yield
    finally:
        stop.set()
        runner.join()


def fetch(port: int, path: str) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"X-Forwarded-For": client_address()})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


def balances(page: str) -> str:
    """The balances block of a player page (``<dl class="balances">…</dl>``)."""
    start = page.find('<dl class="balances">')
    return page[start : page.find("</dl>", start)] if start >= 0 else ""


def worker_memory(port: int) -> list[tuple[int, int, int]]:
    """The gunicorn workers serving ``port``, each as (pid, resident kB now, resident kB at its peak): the
    children of its master (``/proc/<pid>/stat``), their ``VmRSS`` and ``VmHWM`` (``/proc/<pid>/status``)."""
    master = MASTERS[port]
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as source:
                parent = int(source.read().rsplit(")", 1)[1].split()[1])
            if parent != master:
                continue
            with open(f"/proc/{entry}/status") as source:
                status = dict(line.split(":", 1) for line in source if ":" in line)
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        kilobytes = {key: int(status.get(key, "0 kB").split()[0]) for key in ("VmRSS", "VmHWM")}
        found.append((int(entry), kilobytes["VmRSS"], kilobytes["VmHWM"]))
    return found
