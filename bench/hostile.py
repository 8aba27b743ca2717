"""Hostile inputs against a running server: query parameters, path values, API bodies, uploads and form
fields with CSRF, as an attacker or a careless user sends them.

    .venv/bin/python bench/hostile.py                       # SQLite in a temporary file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/x .venv/bin/python bench/hostile.py   # a fresh test database

Seeds a small federation, starts gunicorn on 127.0.0.1 (loopback only) against the same database, logs in
as a club director and sends every input once. Prints ``name=value`` figures: ``tried``, ``refused_cleanly``
(any answer but a 5xx), ``server_errors`` (5xx, each listed) and ``rows_written_by_refused`` (ledger,
tournaments, sanctions, corrections, foreign points and standings rows that appeared: nothing a hostile
input sends may write them) and ``quota_refused`` (issue 33: of twelve 4.9 MB uploads in a row, those the
organiser's hourly quota refused). The expected result is 0 server errors, 0 rows and 7 refused by the quota.

Issue 33's inputs (items 7, 8, 10) run as a second club's director: a percentage of 10,000, a score of
99,999,999.99999, a 40-character entry number and a PBN cut mid-row, each uploaded, previewed and confirmed; a
sanction ending before it starts; S = 999.999 in the calculator; the upload API's confirm and discard of a
discarded upload and a NUL in a resolution's number; then the twelve large uploads.
"""

from __future__ import annotations

import datetime
import http.cookiejar
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from _django import ROOT

HUGE = "1" + "0" * 30
VALUES = [
    HUGE,
    "-1",
    "0",
    "99999",
    "\x00",
    "%00",
    "٣",
    "²",
    "1e9",
    "'; DROP TABLE x;--",
    "<script>x</script>",
    "A" * 3000,
]
DATA = ROOT / "tests" / "tournaments" / "data"
#: The members the files of issue 33's inputs name (the second club's).
MEMBERS = [str(20001 + n) for n in range(12)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def seed():
    """Two federations, a club with a director (password ``director-pw``), a player and a tournament."""
    from django.contrib.auth.models import User

    from clubs.models import Club
    from federation.models import Federation, Player, Region
    from office.services import officer_assign

    dbf = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    Federation.objects.create(name="HBS", code="hbs", scheme="hbs", default_language="hr")
    district = Region.objects.create(federation=dbf, name="Fyn", code="fyn", kind="district")
    club = Club.objects.create(federation=dbf, number="1201", name="BK Fyn")
    club.regions.add(district)
    Player.objects.create(federation=dbf, number="12345", first_name="Karen", last_name="Jensen")
    director = User.objects.create_user("director", "d@example.com", "director-pw")
    officer_assign(actor=None, user=director, role="club_director", federation=dbf, club=club)
    return club


def seed_second_club():
    """Issue 33's inputs: a second club (its own upload quota) with its director (``director2``), twelve members
    the files name, a playing time (a complete sanction application) and an API token; returns the club's and
    the playing time's ids and the token's secret."""
    from django.contrib.auth.models import User

    from clubs.models import Club, PlayingTime
    from federation.models import Federation, Player, Region
    from office.services import api_token_create, officer_assign

    dbf = Federation.objects.get(code="dbf")
    club = Club.objects.create(federation=dbf, number="1202", name="BK Svendborg")
    club.regions.add(Region.objects.get(code="fyn"))
    tuesday = PlayingTime.objects.create(club=club, weekday=1, part_of_day="evening")
    for number in MEMBERS:
        Player.objects.create(federation=dbf, number=number, first_name="Spiller", last_name=number)
    director = User.objects.create_user("director2", "d2@example.com", "director-pw")
    officer_assign(actor=None, user=director, role="club_director", federation=dbf, club=club)
    _token, secret = api_token_create(actor=director, name="hostile", club=club)
    return club.pk, tuesday.pk, secret


def protected_rows() -> int:
    from masterpoints.models import Award, CorrectionRequest, ForeignPoints, Standing
    from tournaments.models import SanctionApplication, Tournament

    return sum(
        m.objects.count() for m in (Award, Tournament, SanctionApplication, CorrectionRequest, ForeignPoints, Standing)
    )


class Client:
    """A browser without a browser: cookies, the CSRF token from the cookie, no redirects followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)
        #: The body of the last successful answer (the API's JSON).
        self.last_body = b""
        #: Where the last redirect pointed (an upload's preview page, say).
        self.location = ""
        #: Headers sent with every request (an API token).
        self.headers: dict[str, str] = {}

    def _plain_http(self) -> None:
        """Outside DEBUG the session and CSRF cookies are ``Secure`` (the site is served behind TLS); this bench
        talks plain HTTP to loopback, so the jar sends them back as a browser behind the proxy would."""
        for cookie in self.jar:
            cookie.secure = False

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def send(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None) -> int:
        self._plain_http()
        headers = {"Referer": self.base + "/", "X-CSRFToken": self.csrf(), **self.headers}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=60) as response:
                self.last_body = response.read()
                return response.status
        except urllib.error.HTTPError as error:
            error.read()
            self.location = error.headers.get("Location") or ""
            return error.code
        except (urllib.error.URLError, ConnectionError) as error:
            print(f"  connection closed by the server: {method} {path[:60]} ({error})")
            return 0

    def form(self, path: str, fields: dict, files: dict | None = None) -> int:
        boundary = uuid.uuid4().hex
        parts = []
        self._plain_http()
        for name, value in {**fields, "csrfmiddlewaretoken": self.csrf()}.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, (filename, data) in (files or {}).items():
            head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            parts.append(head.encode() + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.send("POST", path, body, f"multipart/form-data; boundary={boundary}")


def query_cases(club_pk: int) -> list[tuple[str, str]]:
    pages = {
        "/rankings/": [
            "page",
            "per_page",
            "federation",
            "club",
            "region",
            "season",
            "q",
            "sort",
            "kind",
            "rung",
            "official",
        ],
        "/players/dbf/12345/": ["page", "per_page"],
        "/language/": ["language", "next"],
        "/api/rankings": ["page", "page_size", "federation", "club", "region", "q", "season"],
        "/api/ranking-list": ["page", "federation", "club", "region", "q"],
        "/api/players/dbf/12345": ["page"],
        "/cups/": ["season", "federation", "cup"],
        f"/clubs/{club_pk}/top16/": ["season", "playing_time"],
        "/tournaments/": ["page", "federation", "sort"],
        "/clubs/": ["page", "federation"],
        "/calculator/": ["calc", "dbf-participants", "hbs-boards"],
    }
    cases = []
    for path, names in pages.items():
        for name in names:
            for value in VALUES:
                cases.append(("GET", f"{path}?{urllib.parse.urlencode({name: value})}"))
    cases.append(("GET", "/rankings/?export=xlsx&page=" + HUGE))
    cases.append(("GET", "/rankings/?export=csv&q=" + "%00" * 5))
    for number in ["%00", "12%0045", "A" * 100, "..%2f..%2fetc", "%0a", "%ff%fe", "12345%20"]:
        cases += [
            ("GET", f"/players/{number}/"),
            ("GET", f"/players/dbf/{number}/"),
            ("GET", f"/api/players/dbf/{number}"),
        ]
    return cases


def api_bodies() -> list[bytes]:
    scale = {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 24}
    variants = [
        {**scale, "participants": 10**12},
        {**scale, "participants": -5},
        {**scale, "participants": True},
        {**scale, "participants": "12"},
        {**scale, "boards": 10**9},
        {**scale, "multiplier": "1e999999"},
        {**scale, "multiplier": "NaN"},
        {**scale, "multiplier": "Infinity"},
        {**scale, "ranks": [[1, 10**9]]},
        {**scale, "ranks": [[5, 1]]},
        {**scale, "ranks": "x"},
        {**scale, "scheme": "xyz"},
        {**scale, "kind": "title", "bp": 10**15},
        {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 10**7, "strength": "1"},
        {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 20, "strength": "1e40"},
        {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 20, "boards": 24, "strength": "999.999"},
        {"scheme": "hbs", "kind": "category", "black": -1, "red": "x"},
        {"scheme": "dbf", "kind": "team_match", "category": "BP", "value": "1e30", "boards": 24, "vp": "15"},
        {"scheme": "dbf", "kind": "team_bonus", "matches": 10**6, "boards": 24, "teams": 10**6},
        [],
        "text",
        None,
    ]
    bodies = [json.dumps(v).encode() for v in variants]
    bodies += [
        b"{not json",
        b"[" * 30_000 + b"]" * 30_000,
        b'{"scheme": "dbf", "participants": ' + b"9" * 5000 + b"}",
        b"\xff\xfe\x00\x00",
        b'{"scheme": "dbf", "kind": "scale", "pad": "' + b"x" * 70_000 + b'"}',
        b"",
        json.dumps({**scale, "x": "\u0000"}).encode(),
    ]
    return bodies


def upload_files() -> list[tuple[str, bytes]]:
    names = [
        "hostile_billion_laughs.xml",
        "hostile_external_entity.xml",
        "binary_renamed.xml",
        "xml_truncated.xml",
        "empty.xml",
        "bridgemate_renamed.bws",
        "workbook_renamed.csv",
        "usebio_utf8_declared_latin1.xml",
        "pbn_row_malformed.pbn",
        "csv_value_invalid.csv",
        "date_unparseable.xml",
        "player_twice.xml",
    ]
    files = [(name, (DATA / name).read_bytes()) for name in names if (DATA / name).exists()]
    files += [
        ("huge.xml", b"<" * (6 * 1024 * 1024)),
        ("nul.csv", b"\x00" * 1000),
        ("name\x00.xml", b"<USEBIO/>"),
        ("../../etc/passwd", b"x"),
        ("x" * 400 + ".xml", b"<USEBIO/>"),
    ]
    return files


def members_csv(*, number: str = "1", score: str = "130", percentage: str = "61.5") -> bytes:
    """Our CSV pairs template for the second club, six pairs of its members; the first pair's values as given."""
    rows = [
        f"event_date;{datetime.date.today() - datetime.timedelta(days=3)}",
        f"event_name;Hostile {uuid.uuid4().hex[:8]}",
        "event_type;pairs",
        "club_id;1202",
        "scoring;MP",
        "boards_played;24",
        "entry_no;place;score;percentage;player_1_id;player_1_name;player_2_id;player_2_name",
        f"{number};1;{score};{percentage};{MEMBERS[0]};A;{MEMBERS[1]};B",
    ]
    rows += [f"{n + 1};{n + 1};{120 - n};{55 - n};{MEMBERS[2 * n]};A;{MEMBERS[2 * n + 1]};B" for n in range(1, 6)]
    return ("\n".join(rows) + "\n").encode()


def issue_33_cases(base: str, club_pk: int, playing_time: int, secret: str, note) -> int:
    """Issue 33's inputs (items 7, 8, 10): values past their columns and a truncated PBN uploaded and confirmed
    through the page, a sanction ending before it starts, the upload API's confirm and discard of a discarded
    upload and a NUL in a resolution, then twelve 4.9 MB files in a row. Returns how many the quota refused."""
    director = Client(base)
    director.send("GET", "/accounts/login/")
    director.form("/accounts/login/", {"username": "director2", "password": "director-pw"})
    director.send("GET", "/tournaments/upload/")
    demo = (ROOT / "demo" / "files" / "tirsdag-2025-09-09.pbn").read_bytes()
    files = {
        "percentage 10000": ("p.csv", members_csv(percentage="10000")),
        "score 99999999.99999": ("s.csv", members_csv(score="99999999.99999")),
        "entry number of 40": ("n.csv", members_csv(number="7" * 40)),
        "pbn cut mid-row": ("cut.pbn", demo[: demo.index(b"57.29") + 2]),
    }
    for label, (name, data) in files.items():
        fields = {"organiser": f"club:{club_pk}", "category": "BP"}
        director.location = ""
        note(f"upload {label}", director.form("/tournaments/upload/", fields, {"file": (name, data)}))
        preview = urllib.parse.urlparse(director.location).path
        if not preview.startswith("/tournaments/uploads/"):
            print(f"  {label}: the upload was not stored, so its preview and confirm were not tried")
            continue
        note(f"preview {label}", director.send("GET", preview))
        note(f"confirm {label}", director.form(preview + "confirm/", {"acknowledge_warnings": "on"}))
    day = datetime.date.today() + datetime.timedelta(days=100)
    sanction = {
        "club": club_pk, "name": "Sommer", "category": "SP", "quota": "full", "basis": "quota",
        "playing_time": playing_time,
        "date": day.isoformat(), "end_date": (day - datetime.timedelta(days=3)).isoformat(), "form": "pairs",
        "boards": "48", "entry_deadline": (day - datetime.timedelta(days=7)).isoformat(),
        "advertised_on": (day - datetime.timedelta(days=30)).isoformat(), "advertisement": "dansk_bridge_website",
        "open_to_all": "on",
    }  # fmt: skip
    director.send("GET", "/sanctions/apply/")
    note("sanction ending before it starts", director.form("/sanctions/apply/", sanction))
    program = Client(base)
    program.headers = {"Authorization": f"Bearer {secret}"}

    def call(path: str, body: dict) -> int:
        program.headers["Idempotency-Key"] = uuid.uuid4().hex
        return program.send("POST", path, json.dumps(body).encode(), "application/json")

    program.headers["Idempotency-Key"] = uuid.uuid4().hex
    note("api upload", program.form("/api/uploads", {"category": "BP"}, {"file": ("r.csv", members_csv())}))
    upload = json.loads(program.last_body or "{}").get("id", 0)
    resolution = {"player_key": "-/-/-/1#1", "resolution": "member", "number": "20\x001"}
    note("api resolution with NUL", call(f"/api/uploads/{upload}/resolutions", {"resolutions": [resolution]}))
    note("api discard", call(f"/api/uploads/{upload}/discard", {}))
    note("api confirm of a discarded upload", call(f"/api/uploads/{upload}/confirm", {"acknowledge_warnings": True}))
    note("api discard of a discarded upload", call(f"/api/uploads/{upload}/discard", {}))
    refused = 0
    for n in range(12):
        fields = {"organiser": f"club:{club_pk}", "category": "BP"}
        status = director.form("/tournaments/upload/", fields, {"file": (f"big{n}.xml", bytes([65 + n]) * 4_900_000)})
        note(f"upload of 4.9 MB, number {n + 1}", status)
        refused += status == 200  # the form again, with the quota's refusal; a stored file redirects (302)
    return refused


def run(base: str, club_pk: int, second: tuple[int, int, str]) -> dict:
    results = {"tried": 0, "refused": 0, "errors": [], "second": second}

    def note(label: str, status: int) -> None:
        results["tried"] += 1
        if status >= 500:
            results["errors"].append(f"{status} {label[:100]}")
        else:
            results["refused"] += 1

    anonymous = Client(base)
    for control in ("/", "/rankings/", "/calculator/", "/cups/"):
        status = anonymous.send("GET", control)
        if status != 200:
            raise SystemExit(f"the server answers {status} for {control}: nothing hostile sent yet")
    for method, path in query_cases(club_pk):
        note(path, anonymous.send(method, path))
    anonymous.send("GET", "/calculator/")
    for body in api_bodies():
        note(f"POST /api/calculator {body[:40]!r}", anonymous.send("POST", "/api/calculator", body, "application/json"))
    director = Client(base)
    director.send("GET", "/accounts/login/")
    director.form("/accounts/login/", {"username": "director", "password": "director-pw"})
    director.send("GET", "/tournaments/upload/")
    for name, data in upload_files():
        fields = {"organiser": f"club:{club_pk}", "category": "BP"}
        note(f"upload {name[:40]}", director.form("/tournaments/upload/", fields, {"file": (name, data)}))
    usebio = (DATA / "usebio_ties_equals.xml").read_bytes()
    for fields in (
        {"organiser": "club:999999", "category": "BP"},
        {"organiser": f"club:{club_pk}", "category": "XX"},
        {"organiser": f"club:{club_pk}", "category": "BP", "boards": HUGE},
        {"organiser": f"club:{club_pk}", "category": "BP", "boards": "-3"},
        {"organiser": f"club:{club_pk}", "category": "GP", "met": "\x00"},
        {"organiser": "region:1", "category": "SP"},
        {"organiser": "federation:1", "category": "GP"},
    ):
        note(f"upload form {fields}", director.form("/tournaments/upload/", fields, {"file": ("r.xml", usebio)}))
    day = (datetime.date.today() + datetime.timedelta(days=70)).isoformat()
    for changes in (
        {"date": "2099-99-99"},
        {"date": "\x00"},
        {"date": HUGE},
        {"boards": HUGE},
        {"boards": "-1"},
        {"category": "ZZ"},
        {"quota": "triple"},
        {"club": "999999"},
        {"name": "A" * 5000},
        {"end_date": "1900-01-01"},
    ):
        fields = {"club": club_pk, "name": "Turnering", "date": day, "category": "SP", "quota": "full", **changes}
        note(f"sanction {changes}"[:100], director.form("/sanctions/apply/", fields))
    for changes in (
        {"player": HUGE},
        {"player": "\x00"},
        {"tournament": "-1"},
        {"text": "A" * 100_000},
        {"award": "x"},
    ):
        note(f"correction {changes}"[:100], director.form("/corrections/new/", {"text": "x", **changes}))
    for path in (
        "/tournaments/uploads/999999/",
        "/tournaments/uploads/999999/confirm/",
        "/tournaments/uploads/1/discard/",
    ):
        note(
            f"POST {path}", director.form(path, {"acknowledge_warnings": "on", "player_key": "\x00", "resolution": "x"})
        )
    note("privacy of another", director.form("/players/dbf/12345/privacy/", {"hide_name": "on"}))
    results["quota_refused"] = issue_33_cases(base, *results.pop("second"), note)
    return results


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    sqlite = os.path.join(tempfile.mkdtemp(prefix="hostile-"), "db.sqlite3")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    if connection.vendor == "sqlite":
        connection.settings_dict.setdefault("TEST", {})["NAME"] = sqlite
    old_name = connection.settings_dict["NAME"]
    test_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    club = seed()
    second = seed_second_club()
    before = protected_rows()
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "bench-only-not-secret", "ALLOWED_HOSTS": "127.0.0.1"}
    env.update(SECURE_SSL_REDIRECT="0", LOG_LEVEL="CRITICAL", DB_CONN_MAX_AGE="0", MEDIA_ROOT=tempfile.mkdtemp())
    env.pop("REDIS_URL", None)
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = test_name
    else:
        s = connection.settings_dict
        env["DATABASE_URL"] = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{test_name}"
    env["STATIC_ROOT"] = tempfile.mkdtemp(prefix="hostile-static-")
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v0"], env=env, check=True)
    port = free_port()
    connection.close()
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
        env=env,
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        started = time.perf_counter()
        results = run(f"http://127.0.0.1:{port}", club.pk, second)
        seconds = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    written = protected_rows() - before
    print(f"database={connection.vendor}")
    print(f"tried={results['tried']}")
    print(f"refused_cleanly={results['refused']}")
    print(f"server_errors={len(results['errors'])}")
    print(f"rows_written_by_refused={written}")
    print(f"quota_refused={results['quota_refused']} (of 12 uploads of 4.9 MB in a row; 7 expected)")
    print(f"seconds={seconds:.1f}")
    for line in results["errors"]:
        print(f"  5xx: {line}")
    connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
