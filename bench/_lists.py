"""The standings benchmark's lists and exports (``bench/standings.py``): a mix of rankings pages, HTML and API,
each address distinct, against the trivial view; the whole rankings CSV as an anonymous client reads it; the
web workers' memory after the scenarios.

The mix draws, for each address, a federation (by its share of the players), the page (``/rankings/``) or
the API (``/api/rankings``), a kind and a season among those the filter offers (half of them career), one
filter (none, a region, a club, a name, a title rung; the official list or everyone where the federation
shows the official list by default), for the page an order among the table's sortable columns (or none) and
a page size among the offered ones (the API's up to its 100), and a page from the first to the last: the
last computed from the list's length, counted once for each filter (``StandingFilter(...).qs.count()``, the
list the page reads).
"""

from __future__ import annotations

import datetime
import math
import random
import statistics
import time
import urllib.error
import urllib.request
import zlib
from dataclasses import dataclass
from urllib.parse import urlencode

from _latency import Figures, client_address, load, worker_memory

#: Filters of the mix drawn and counted (each address then picks one of them).
MIX_FILTERS = 200
#: The API's page sizes drawn (it serves at most 100 rows a page).
API_PAGE_SIZES = (25, 50, 100)
#: An export run is repeated (median of three) only while one takes less than this many seconds.
EXPORT_REPEAT_SECONDS = 30
NAMES = ("Jensen", "Nielsen", "Holm", "Dahl", "Bach", "Krogh", "Lund", "Horvat", "Babić", "Anne", "Hans Lund")


def emit(name: str, value: float | int, digits: int = 3) -> None:
    print(f"{name}={value:.{digits}f}" if isinstance(value, float) else f"{name}={value}", flush=True)


@dataclass
class Offered:
    """What one federation's rankings offer to choose: its filters' values and the table's orders."""

    federation: object
    kinds: list[str]
    seasons: list[str]
    rungs: list[str]
    regions: list[tuple[int, str]]  # (id, code): the page names a region by id, the API by code
    clubs: list[tuple[int, str]]  # (id, number)
    orders: list[str]
    share: float

    @classmethod
    def of(cls, federation, share: float) -> Offered:
        from clubs.models import Club
        from federation.models import Region
        from masterpoints.public.filters import StandingFilter
        from masterpoints.public.tables import StandingTable

        filters = StandingFilter({"federation": str(federation.pk)}).filters
        table = StandingTable([], federation=federation)
        sortable = [column.name for column in table.columns if column.orderable]
        return cls(
            federation=federation,
            kinds=[str(value) for value, _label in filters["kind"].extra["choices"]],
            seasons=[str(value) for value, _label in filters["season"].extra["choices"]],
            rungs=[str(value) for value, _label in filters["rung"].extra["choices"]],
            regions=list(Region.objects.filter(federation=federation).values_list("pk", "code")),
            clubs=list(Club.objects.filter(federation=federation).values_list("pk", "number")),
            orders=["", *sortable, *(f"-{name}" for name in sortable)],
            share=share,
        )

    def draw_filter(self, rng: random.Random) -> tuple:
        """(season, filter name, value for the page, value for the API, official list): one list to count."""
        season = rng.choice(self.seasons) if self.seasons and rng.random() < 0.5 else ""
        name = rng.choice(("", "region", "club", "q", "rung"))
        page = api = ""
        if name == "region" and self.regions:
            page, api = map(str, rng.choice(self.regions))
        elif name == "club" and self.clubs:
            page, api = map(str, rng.choice(self.clubs))
        elif name == "q":
            page = api = rng.choice(NAMES)
        elif name == "rung" and self.rungs:
            page = api = rng.choice(self.rungs)
        official = rng.choice(("yes", "no")) if self.federation.scheme_info.official_list_by_default else ""
        return season, name if page else "", page, api, official

    def count(self, drawn: tuple) -> int:
        """The length of the list ``drawn`` names, as the page reads it."""
        from masterpoints.public.filters import StandingFilter

        season, name, page, _api, official = drawn
        data = {"federation": str(self.federation.pk), "season": season, "official": official}
        if name:
            data[name] = page
        return StandingFilter({key: value for key, value in data.items() if value}).qs.count()

    def address(self, rng: random.Random, drawn: tuple, rows: int) -> str:
        """A page of the list ``drawn`` (``rows`` long): the page's or the API's, ordered, sized, deep."""
        season, name, page, api, official = drawn
        kind = rng.choice(self.kinds) if self.kinds else ""
        if rng.random() < 0.5:
            from federation.tables import PAGE_SIZES

            size = rng.choice(PAGE_SIZES)
            query = {"federation": self.federation.pk, "kind": kind, "season": season, name: page}
            query.update(official=official, sort=rng.choice(self.orders), per_page=size)
            path = "/rankings/?"
        else:
            size = rng.choice(API_PAGE_SIZES)
            query = {"federation": self.federation.code, "kind": kind, "season": season, name: api}
            query.update(official=official, page_size=size)
            path = "/api/rankings?"
        query["page"] = rng.randint(1, max(1, math.ceil(rows / size)))
        return path + urlencode({key: value for key, value in query.items() if key and value != ""})


def list_addresses(total: int, *, seed: int = 36) -> list[str]:
    """``total`` distinct addresses of the mix (see the module), at most :data:`MIX_FILTERS` lists counted."""
    from django.db.models import Count

    from federation.models import Federation

    rng = random.Random(seed)
    federations = list(Federation.objects.annotate(n=Count("players")).order_by("pk"))
    everyone = sum(f.n for f in federations) or 1
    offered = [Offered.of(f, f.n / everyone) for f in federations]
    start = time.perf_counter()
    lists = []
    for _ in range(min(total, MIX_FILTERS)):
        chosen = rng.choices(offered, weights=[o.share for o in offered])[0]
        drawn = chosen.draw_filter(rng)
        lists.append((chosen, drawn, chosen.count(drawn)))
    counted = time.perf_counter() - start
    addresses: dict[str, None] = {}
    for _ in range(total * 20):
        if len(addresses) >= total:
            break
        chosen, drawn, rows = rng.choice(lists)
        addresses[chosen.address(rng, drawn, rows)] = None
    deepest = max((rows for _o, _d, rows in lists), default=0)
    api = sum("/api/" in address for address in addresses)
    print(f"lists mix: {len(addresses)} addresses ({api} of them the API's) over {len(lists)} lists ", end="")
    print(f"(longest {deepest:,} rows), counted in {counted:.1f} s")
    return list(addresses)


def lists_figures(port: int, args) -> None:
    """``lists_mix_uncached_vs_trivial``: the mix's throughput over the trivial view's (the mean of a run right
    before and one right after), the same clients, requests and time limit."""
    addresses = list_addresses(args.requests)
    before = load(port, ["/bench/trivial"], args.requests, args.clients, args.seconds)
    mix = load(port, addresses, len(addresses), args.clients, args.seconds, in_order=True)
    after = load(port, ["/bench/trivial"], args.requests, args.clients, args.seconds)
    trivial = Figures.mean(before, after)
    print(before.line("trivial before lists_mix"))
    print(mix.line("lists_mix (each address distinct)"))
    print(after.line("trivial after lists_mix"))
    if mix.errors:
        print(f"  lists_mix: {mix.errors} answers other than 200 (counted in the throughput)")
    emit("lists_mix_p50_ms", mix.p50_ms, 1)
    emit("lists_mix_p95_ms", mix.p95_ms, 1)
    emit("lists_mix_errors", mix.errors)
    emit("lists_mix_uncached_vs_trivial", mix.rps / trivial.rps if trivial.rps else 0.0)


def export_read(port: int, path: str) -> tuple[int, int, float, int]:
    """``path`` read as a browser reads a download (gzip accepted, read as it comes, nothing kept): the CSV's
    rows (its lines but the header), the bytes received, the seconds until the last one and the status."""
    headers = {"Accept-Encoding": "gzip", "X-Forwarded-For": client_address()}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    lines = received = 0
    last = b"\n"
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            status = response.status
            gzipped = response.headers.get("Content-Encoding") == "gzip"
            inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
            while chunk := response.read(1 << 16):
                received += len(chunk)
                text = inflate.decompress(chunk) if inflate else chunk
                lines += text.count(b"\n")
                last = text[-1:] or last
    except urllib.error.HTTPError as error:
        status = error.code
    seconds = time.perf_counter() - start
    lines += last != b"\n"  # a last row without its line break
    return max(0, lines - 1), received, seconds, status


def export_figures(port: int) -> None:
    """``export_rows_per_s``: the largest federation's whole rankings CSV, anonymous, rows a second (median of
    three runs, or of the runs before one took :data:`EXPORT_REPEAT_SECONDS`)."""
    from django.db.models import Count

    from federation.models import Federation

    federation = Federation.objects.annotate(n=Count("players")).order_by("-n", "pk").first()
    path = f"/rankings/?federation={federation.pk}&export=csv"
    runs = []
    for _ in range(3):
        rows, received, seconds, status = export_read(port, path)
        print(f"export {path}: {rows:,} rows, {received / 1e6:.1f} MB received in {seconds:.2f} s, status {status}")
        runs.append(rows / seconds if status == 200 and seconds else 0.0)
        if seconds > EXPORT_REPEAT_SECONDS:
            break
    emit("export_rows", rows)
    emit("export_rows_per_s", statistics.median(runs), 0)


def memory_figures(port: int) -> None:
    """``worker_rss_mb``: the largest web worker's resident memory now (after the scenarios);
    ``worker_peak_rss_mb``: the largest any worker reached."""
    workers = worker_memory(port)
    print(f"{datetime.datetime.now():%H:%M:%S} web workers (pid: resident MB now / at peak): ", end="")
    print(", ".join(f"{pid}: {rss / 1024:.0f} / {peak / 1024:.0f}" for pid, rss, peak in sorted(workers)))
    emit("worker_rss_mb", max((rss for _pid, rss, _peak in workers), default=0) / 1024, 1)
    emit("worker_peak_rss_mb", max((peak for _pid, _rss, peak in workers), default=0) / 1024, 1)
