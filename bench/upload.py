"""Upload benchmark: parse, validate + compute, and commit times for result files.

    DATABASE_URL=postgres://… .venv/bin/python bench/upload.py [--repeat 3]

Measures the largest real sample in ../shared/samples (when present) and a generated 400-pair,
3-section USEBIO file, each uploaded by a DBf club for BP. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time

from _django import ROOT, setup_test_database

SAMPLES = ROOT.parent / "shared" / "samples"


def timed(fn, repeat: int):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    teardown = setup_test_database()
    try:
        run(args.repeat)
    finally:
        teardown()


def run(repeat: int) -> None:
    from django.db import connection, transaction

    from clubs.models import Club
    from federation.models import Federation, Player, RuleSet
    from masterpoints.models import Award
    from masterpoints.uploads.preview import build_preview
    from masterpoints.uploads.services import results_upload_confirm, results_upload_create
    from tests.factories import pairs_from_numbers, usebio_pairs
    from tournaments.importers import parse_results
    from tournaments.models import ResultUpload

    fed = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    # The real samples predate the 2023 rules: compute them under the same rules from an earlier date.
    RuleSet.objects.create(federation=fed, valid_from=datetime.date(2000, 1, 1), name="DBf 2023 rules, backdated")
    files: list[tuple[str, bytes]] = []
    largest = (
        max(SAMPLES.glob("usebio_*.xml"), key=lambda p: p.stat().st_size, default=None) if SAMPLES.is_dir() else None
    )
    if largest is not None:
        files.append((f"largest sample ({largest.name}, {largest.stat().st_size // 1024} KB)", largest.read_bytes()))
    numbers = [str(100001 + i) for i in range(800)]
    bounds = [0, 268, 534, 800]  # 134 + 133 + 133 = 400 pairs
    sections = [pairs_from_numbers(numbers[bounds[i] : bounds[i + 1]], seed=i) for i in range(3)]
    generated = usebio_pairs(
        club_number="1001", date=datetime.date(2025, 1, 15), name="Bench 400 pairs", sections=sections, boards=26
    )
    files.append((f"generated 400 pairs in 3 sections ({len(generated) // 1024} KB)", generated))

    print(f"database: {connection.vendor}; median of {repeat} runs")
    print(f"{'file':60} {'parse':>9} {'preview':>17} {'commit':>9} {'total':>9} {'awards':>7}")
    for label, data in files:
        parsed = parse_results(data, "bench.xml")
        # The register under the file's own names, as a scoring program that checks numbers writes them (the
        # upload's name check then finds every player as written).
        wanted = {p.national_id: p.name or "" for e in parsed.event.entries() for p in e.players if p.national_id}
        club, _ = Club.objects.get_or_create(
            federation=fed, number=parsed.event.club_number or "1001", defaults={"name": "Bench"}
        )
        Player.objects.bulk_create(
            [Player(federation=fed, number=n, first_name="", last_name=wanted[n] or n) for n in sorted(wanted)],
            ignore_conflicts=True,
        )
        facts = {"organiser_kind": "club", "category": "BP", "form": "", "boards": None}
        parse_time, _ = timed(lambda data=data: parse_results(data, "bench.xml"), repeat)

        def preview(data=data, club=club, facts=facts):
            upload = ResultUpload(
                federation=fed, club=club, original_name="bench.xml", size=len(data), facts=facts, sha256=""
            )
            return build_preview(upload, data=data)

        preview_time, result = timed(preview, repeat)
        commit_times = []
        for _ in range(repeat):
            with transaction.atomic():
                sid = transaction.savepoint()
                stored = results_upload_create(
                    actor=None,
                    federation=fed,
                    club=club,
                    region=None,
                    data=data,
                    filename="b.xml",
                    facts=facts,
                    trusted=True,
                )
                start = time.perf_counter()
                results_upload_confirm(actor=None, upload=stored, acknowledge_warnings=True, trusted=True)
                commit_times.append(time.perf_counter() - start)
                awards = Award.objects.count()
                transaction.savepoint_rollback(sid)
        commit_time = statistics.median(commit_times)
        errors = [i.code for i in result.issues if str(i.severity) == "error"]
        print(
            f"{label:60} {parse_time * 1000:8.1f}ms {preview_time * 1000:16.1f}ms {commit_time * 1000:8.1f}ms "
            f"{(preview_time + commit_time) * 1000:8.1f}ms {awards:7d}"
            + (f"  errors: {sorted(set(errors))}" if errors else "")
        )
    print("preview = parse + validate + resolve players + compute (what the preview page shows)")
    print("commit = recompute the preview inside the transaction + write tournament, entries and awards")


if __name__ == "__main__":
    main()
