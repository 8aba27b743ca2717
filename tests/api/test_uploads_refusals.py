"""Issue 33, item 7, through the upload API: a confirm or discard of an upload that is no longer pending raised
``TypeError`` in ``api.errors.service_refusal`` (the refusal's ``status`` parameter collided with the HTTP status)
and answered 500; a NUL in a resolution's number reached PostgreSQL, which refuses NUL in text. Now 409 naming
the upload's status, and 400 naming the field."""

from __future__ import annotations

import pytest

from api.errors import ApiError
from tests.api.test_uploads import NUMBERS, members, post_json, program, secret_a, send  # noqa: F401 (fixtures)
from tournaments.models import ResultUpload


@pytest.mark.parametrize("call", ["api:upload_confirm", "api:upload_discard"])
def test_a_confirm_or_discard_of_a_discarded_upload_is_409_naming_its_status(world, members, secret_a, call):  # noqa: F811
    api = program(secret_a)
    upload_id = send(api).json()["id"]
    assert post_json(api, "api:upload_discard", upload_id, {}, "k-discard-1").status_code == 200
    body = {"acknowledge_warnings": True} if call == "api:upload_confirm" else {}
    response = post_json(api, call, upload_id, body, "k-again-1")
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "REFUSED"
    assert error["params"] == {"status": "discarded"}
    assert error["message"] == "This upload is already discarded."
    assert ResultUpload.objects.get().status == ResultUpload.Status.DISCARDED


def test_a_refusals_own_status_parameter_never_collides_with_the_http_status():
    refusal = ApiError(409, "REFUSED", "already confirmed", params={"status": "confirmed", "code": "x", "field": "y"})
    assert refusal.status == 409 and refusal.code == "REFUSED" and refusal.field is None
    assert refusal.as_json()["error"]["params"] == {"status": "confirmed", "code": "x", "field": "y"}


@pytest.mark.parametrize("field", ["number", "player_key"])
def test_a_nul_in_a_resolution_is_400_naming_the_field_and_nothing_is_recorded(world, members, secret_a, field):  # noqa: F811
    api = program(secret_a)
    preview = send(api).json()
    (player,) = preview["unresolved"]
    item = {"player_key": player["key"], "resolution": "member", "number": NUMBERS[-1]}
    item[field] = item[field][:2] + "\x00" + item[field][2:]
    response = post_json(api, "api:upload_resolutions", preview["id"], {"resolutions": [item]}, "k-nul-1")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["field"] == f"body.resolutions.0.{field}"
    assert ResultUpload.objects.get().resolutions == {}
