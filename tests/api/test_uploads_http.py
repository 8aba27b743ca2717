"""The upload API over real HTTP (issue 17): a scoring program with nothing but a token and ``urllib`` talks to
a running server — upload, preview, resolve, confirm — and the award is on the player's public page; a
revoked token is refused as JSON and writes nothing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid

import pytest

from masterpoints.models import Award
from office.services import api_token_create, api_token_revoke
from tests.api.test_uploads import NUMBERS, results_file
from tests.factories import make_players
from tournaments.models import ResultUpload


def call(url: str, secret: str, *, body: bytes | None = None, content_type: str = "application/json"):
    """One HTTP request as a scoring program makes it: the token, a fresh Idempotency-Key for a write."""
    headers = {"Authorization": f"Bearer {secret}"}
    if body is not None:
        headers |= {"Content-Type": content_type, "Idempotency-Key": str(uuid.uuid4())}
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: text/xml\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@pytest.mark.django_db(transaction=True)
def test_a_scoring_program_uploads_resolves_and_confirms_over_http(live_server, transactional_db, world, personas):
    make_players(world.dbf, NUMBERS)
    _token, secret = api_token_create(actor=personas.director_a, name="Compscore", club=world.club_a)
    body, content_type = multipart({"category": "BP"}, "mandag.xml", results_file())
    status, preview = call(f"{live_server.url}/api/uploads", secret, body=body, content_type=content_type)
    assert status == 201, preview
    (player,) = preview["unresolved"]
    resolution = {"resolutions": [{"player_key": player["key"], "resolution": "member", "number": NUMBERS[-1]}]}
    base = f"{live_server.url}/api/uploads/{preview['id']}"
    status, after = call(f"{base}/resolutions", secret, body=json.dumps(resolution).encode())
    assert status == 200 and after["can_confirm"], after
    status, done = call(f"{base}/confirm", secret, body=json.dumps({"acknowledge_warnings": True}).encode())
    assert status == 200 and done["status"] == "confirmed", done
    with urllib.request.urlopen(f"{live_server.url}/players/dbf/{NUMBERS[0]}/", timeout=30) as page:
        assert '<td class="num">24 BP</td>' in page.read().decode()


@pytest.mark.django_db(transaction=True)
def test_a_revoked_token_is_refused_over_http_as_json_and_writes_nothing(
    live_server, transactional_db, world, personas
):
    token, secret = api_token_create(actor=personas.director_a, name="Old program", club=world.club_a)
    api_token_revoke(actor=personas.director_a, token=token)
    body, content_type = multipart({"category": "BP"}, "mandag.xml", results_file())
    status, answer = call(f"{live_server.url}/api/uploads", secret, body=body, content_type=content_type)
    assert status == 401 and answer["error"]["code"]
    assert not ResultUpload.objects.exists() and not Award.objects.exists()
