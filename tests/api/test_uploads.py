"""The upload API for scoring programs (issue 17), through the real path: a token made on the office page →
``POST /api/uploads`` (the upload page's checks) → the preview as JSON → resolve → confirm → the award on the
player's public page; with wrong, other clubs' and revoked tokens refused as JSON and nothing written, every
write once per ``Idempotency-Key``, and every call with a token audited."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from api.models import IdempotentCall
from federation.models import AuditEvent
from masterpoints.models import Award
from office.models import ApiToken, Officer
from office.services import officer_assign, officer_revoke
from tests.factories import make_players, pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload, Tournament

DAY = datetime.date(2025, 2, 3)
NUMBERS = [str(60001 + i) for i in range(24)]
#: The file gives the last player a number the register does not have: the director says who it was.
UNKNOWN = "69999"


@pytest.fixture
def members(world):
    return make_players(world.dbf, [*NUMBERS[:-1], NUMBERS[-1]])


def results_file(numbers=(*NUMBERS[:-1], UNKNOWN), *, name="Mandagsturnering") -> bytes:
    pairs = pairs_from_numbers(list(numbers))
    return usebio_pairs(club_number="1001", date=DAY, name=name, sections=[pairs], boards=24)


def make_token(client, user, organiser: str) -> str:
    """Make a token on the office page as ``user``; the secret the page shows once."""
    client.force_login(user)
    response = client.post(reverse("office:api_tokens"), {"organiser": organiser, "name": "Compscore"})
    assert response.status_code == 200, response.content
    client.logout()
    return response.context["created"][1]


@pytest.fixture
def secret_a(personas, world):
    return make_token(Client(), personas.director_a, f"club:{world.club_a.pk}")


@pytest.fixture
def secret_b(personas, world):
    return make_token(Client(), personas.director_b, f"club:{world.club_b.pk}")


def program(secret: str) -> Client:
    """A scoring program: no session, no cookie, only the token."""
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def send(client: Client, key: str = "k-upload-1", data: bytes | None = None, **facts):
    file = SimpleUploadedFile("mandag.xml", data if data is not None else results_file(), content_type="text/xml")
    return client.post(reverse("api:uploads"), {"category": "BP", **facts, "file": file}, HTTP_IDEMPOTENCY_KEY=key)


def post_json(client: Client, name: str, upload_id: int, body: dict, key: str):
    url = reverse(name, args=[upload_id])
    return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


def nothing_written() -> bool:
    return not (ResultUpload.objects.exists() or Tournament.objects.exists() or Award.objects.exists())


def test_token_upload_preview_resolve_confirm_puts_the_award_on_the_players_page(world, personas, members, secret_a):
    """Issue 17 (upload API): the same checks as the upload page (``results_upload_create`` + preview), the
    preview as JSON with each issue's code, place and parameters; the players resolved with the page's
    choices; the confirm writes the ledger (§ 406: 12 pairs over 24 boards pay places 1–4 BP, D-P1)."""
    api = program(secret_a)
    created = send(api)
    assert created.status_code == 201, created.content
    preview = created.json()
    assert preview["status"] == "pending" and preview["federation"] == "dbf"
    assert preview["event"]["name"] == "Mandagsturnering" and preview["event"]["date"] == DAY.isoformat()
    assert preview["has_errors"] and not preview["can_confirm"]
    unknown = next(issue for issue in preview["issues"] if issue["code"] == "PLAYER_UNKNOWN")
    assert unknown["severity"] == "error" and UNKNOWN in unknown["message"]
    assert unknown["where"]["path"] and unknown["params"]
    (player,) = preview["unresolved"]
    assert player["id_in_file"] == UNKNOWN
    assert preview["url"].endswith(f"/api/uploads/{preview['id']}")
    assert preview["preview_url"].endswith(reverse("uploads:preview", args=[preview["id"]]))

    resolved = post_json(
        api,
        "api:upload_resolutions",
        preview["id"],
        {"resolutions": [{"player_key": player["key"], "resolution": "member", "number": NUMBERS[-1]}]},
        "k-resolve-1",
    )
    assert resolved.status_code == 200, resolved.content
    after = resolved.json()
    assert after["unresolved"] == [] and not after["has_errors"] and after["can_confirm"]
    assert [award["amount"] for award in after["awards"][:2]] == ["24", "24"]

    confirmed = post_json(
        api, "api:upload_confirm", preview["id"], {"acknowledge_warnings": True, "replaces": None}, "k-confirm-1"
    )
    assert confirmed.status_code == 200, confirmed.content
    answer = confirmed.json()
    assert answer["status"] == "confirmed"
    tournament = Tournament.objects.get()
    assert answer["tournament"]["url"].endswith(tournament.get_absolute_url())
    assert answer["points"] == {"BP": "118"}  # (24 + 16 + 11 + 8) BP for both players of the first four pairs
    first = Award.objects.filter(tournament=tournament, player__number=NUMBERS[0]).get()
    assert (first.kind, first.units, first.created_by) == ("BP", 24, personas.director_a)
    page = Client().get(reverse("public:player", args=["dbf", NUMBERS[0]])).content.decode()
    assert "Mandagsturnering</a> · place 1" in page and '<td class="num">24 BP</td>' in page
    calls = AuditEvent.objects.filter(action="api.call").order_by("pk")
    actions = list(calls.values_list("payload__status", flat=True))
    assert actions == [201, 200, 200]
    assert ApiToken.objects.get().last_used_at is not None


def test_a_retried_write_with_the_same_key_returns_the_first_answer_and_posts_once(world, members, secret_a):
    """Issue 17: an Idempotency-Key per write call; a retry gets the first answer (``Idempotent-Replayed``),
    another request under the same key is refused (409), and a refused call keeps nothing of its key."""
    api = program(secret_a)
    first = send(api, key="same")
    again = send(api, key="same")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert ResultUpload.objects.count() == 1
    other = send(api, key="same", category="SP")
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert other.json()["error"]["field"] == "Idempotency-Key"
    assert ResultUpload.objects.count() == 1

    upload_id = first.json()["id"]
    refused = post_json(api, "api:upload_confirm", upload_id, {"acknowledge_warnings": True}, "confirm")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "HAS_ERRORS"
    assert not IdempotentCall.objects.filter(key="confirm").exists()  # nothing written: the key may be reused
    (player,) = first.json()["unresolved"]
    guest = {"resolutions": [{"player_key": player["key"], "resolution": "guest"}]}
    assert post_json(api, "api:upload_resolutions", upload_id, guest, "resolve").status_code == 200
    answers = [post_json(api, "api:upload_confirm", upload_id, {"acknowledge_warnings": True}, "confirm") for _ in "12"]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[1]["Idempotent-Replayed"] == "true" and answers[1].json() == answers[0].json()
    assert Tournament.objects.count() == 1
    assert Award.objects.filter(source=Award.Source.RESULT).count() == 8  # both players of places 1-4 (D-P1)


def test_racing_retries_leave_one_row_per_token_and_key(world, secret_a):
    """Issue 17: two racing calls with one key both insert the key's row first; the constraint lets one in."""
    token = ApiToken.objects.get()
    IdempotentCall.objects.create(token=token, key="k", request_digest="a" * 64, status=201, response={})
    with pytest.raises(IntegrityError):
        IdempotentCall.objects.create(token=token, key="k", request_digest="a" * 64, status=201, response={})


@pytest.mark.parametrize("key", [None, "", "x" * 101, "with space"])
def test_a_write_without_a_proper_idempotency_key_is_refused_naming_the_header(world, members, secret_a, key):
    api = program(secret_a)
    file = SimpleUploadedFile("mandag.xml", results_file(), content_type="text/xml")
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    response = api.post(reverse("api:uploads"), {"category": "BP", "file": file}, **headers)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_REQUEST"
    assert "Idempotency-Key" in response.json()["error"]["field"]
    assert nothing_written()


def test_a_wrong_token_another_clubs_token_and_a_revoked_token_are_refused_and_write_nothing(
    world, personas, members, secret_a, secret_b
):
    """Issue 17: a token acts only for its own club; unknown and revoked tokens are refused (401) with codes."""
    wrong = send(program("mpo_" + "x" * 43))
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "TOKEN_INVALID"
    assert nothing_written()

    upload_id = send(program(secret_a)).json()["id"]
    theirs = program(secret_b)
    for answer in (
        theirs.get(reverse("api:upload", args=[upload_id])),
        post_json(theirs, "api:upload_confirm", upload_id, {"acknowledge_warnings": True}, "b-1"),
        post_json(theirs, "api:upload_discard", upload_id, {}, "b-2"),
    ):
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "UPLOAD_NOT_FOUND"
        assert f"Bridgeklubben B (1002) has no upload {upload_id}." == answer.json()["error"]["message"]
    assert ResultUpload.objects.get().status == ResultUpload.Status.PENDING
    assert not Tournament.objects.exists() and not IdempotentCall.objects.filter(key__startswith="b-").exists()
    refused = AuditEvent.objects.filter(action="api.call", payload__token=secret_b[:12])
    assert sorted(refused.values_list("payload__status", flat=True)) == [404, 404, 404]

    site = Client()
    site.force_login(personas.director_a)
    token_a = ApiToken.objects.get(club=world.club_a)
    site.post(reverse("office:api_token_revoke", args=[token_a.pk]))
    revoked = program(secret_a).get(reverse("api:upload", args=[upload_id]))
    assert revoked.status_code == 401 and revoked.json()["error"]["code"] == "TOKEN_REVOKED"
    assert send(program(secret_a), key="after-revoke").status_code == 401
    assert ResultUpload.objects.count() == 1


def test_a_signed_in_officers_session_cannot_call_the_write_endpoints(world, personas, members, secret_a):
    """CSRF: the upload API reads only the Authorization header, never the session cookie, so a page of
    another site cannot make these calls in a signed-in director's name."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(personas.director_a)
    response = send(browser)
    assert response.status_code == 401 and response.json()["error"]["code"] == "TOKEN_MISSING"
    assert nothing_written()


def test_ending_the_office_revokes_its_tokens_and_they_read_nothing_issue_33(world, personas, members, secret_a):
    """Issue 33, hole 6: a director who leaves the club takes the tokens they made with them: the office's end
    revokes them (audited, naming why), and no call reads the club's previews any more, hidden names included."""
    api = program(secret_a)
    upload_id = send(api).json()["id"]
    assert api.get(reverse("api:upload", args=[upload_id])).status_code == 200
    officer_revoke(actor=personas.secretariat, officer=Officer.objects.get(user=personas.director_a))
    token = ApiToken.objects.get(created_by=personas.director_a)
    assert token.revoked_at is not None and token.revoked_by == personas.secretariat
    revoked = AuditEvent.objects.get(action="api.token.revoke", target_id=str(token.pk))
    assert revoked.payload["reason"] == "office_ended" and revoked.actor == personas.secretariat
    for call in (api.get(reverse("api:upload", args=[upload_id])), send(api, key="after-end")):
        assert call.status_code == 401 and call.json()["error"]["code"] == "TOKEN_REVOKED"


def test_a_token_reads_nothing_once_its_maker_no_longer_acts_for_the_club_issue_33(world, personas, members, secret_a):
    """Issue 33, hole 6: also when the office ended without the service (a row deleted, a login deactivated), a
    token acts only while its maker may act for its club."""
    api = program(secret_a)
    upload_id = send(api).json()["id"]
    Officer.objects.filter(user=personas.director_a).delete()
    response = api.get(reverse("api:upload", args=[upload_id]))
    assert response.status_code == 403 and response.json()["error"]["code"] == "TOKEN_MAKER_ENDED"
    assert "director_a" in response.json()["error"]["message"]
    officer_assign(actor=None, user=personas.director_a, role="club_director", federation=world.dbf, club=world.club_a)
    assert api.get(reverse("api:upload", args=[upload_id])).status_code == 200
    personas.director_a.is_active = False
    personas.director_a.save()
    assert api.get(reverse("api:upload", args=[upload_id])).status_code == 403


def test_the_upload_size_is_bounded_as_the_upload_form_does(world, members, secret_a, settings):
    settings.RESULTS_UPLOAD_MAX_BYTES = 1000
    response = send(program(secret_a), data=b"<USEBIO>" + b" " * 2000 + b"</USEBIO>")
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "FILE_TOO_LARGE" and error["field"] == "file"
    assert nothing_written()


def test_the_facts_are_checked_as_on_the_upload_page(world, members, secret_a):
    """The upload page's form decides: Klubsølv and the top-16 award SP only (§ 403A)."""
    response = send(program(secret_a), category="BP", special="top16")
    assert response.status_code == 400
    assert response.json()["error"] | {"params": None} == {
        "code": "INVALID_FACTS",
        "field": "special",
        "message": "Klubsølv, the simultaneous events and the top-16 award SP (§ 403A).",
        "params": None,
    }
    assert nothing_written()


def test_calls_are_limited_per_token(world, secret_a, secret_b, rate_window):
    """Issue 17: a rate per token (``api.limits.UPLOAD_API_RATE``, 60 calls a minute); another token is not
    slowed by it."""
    api = program(secret_a)
    answers = [api.get(reverse("api:upload", args=[999])).status_code for _ in range(61)]
    assert answers[:60] == [404] * 60 and answers[60] == 429
    assert "at most 60/m" in api.get(reverse("api:upload", args=[999])).json()["error"]["message"]
    assert program(secret_b).get(reverse("api:upload", args=[999])).status_code == 404
