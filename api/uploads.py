"""The upload API for scoring programs: send a results file with a club's or region's token, read the
preview, resolve players, confirm (``/api/uploads``).

The same checks as the upload page, through the same code: the facts are read by the page's form
(``ResultUploadForm``, its bounds and the 5 MB limit included) and every write is one of
``masterpoints.uploads.services`` (``results_upload_create``, ``results_upload_resolve``,
``results_upload_confirm``, ``results_upload_discard``), called in the name of the officer who made the
token, for the token's own club or region only. Every write call takes an ``Idempotency-Key``
(``api.services.api_call_once``); every call with a token is audited.
"""

import hashlib
from typing import Annotated

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import File, Form, Header, Router
from ninja.files import UploadedFile

from api.auth import TokenAuth
from api.errors import ApiError, service_refusal
from api.schemas import (
    IDEMPOTENCY_KEY_PATTERN,
    ConfirmIn,
    ErrorOut,
    ResolutionsIn,
    UploadFactsIn,
    UploadOut,
)
from api.selectors import token_upload, upload_json
from api.services import api_call_audit, api_call_once, request_digest
from masterpoints.uploads.forms import ResultUploadForm
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import (
    UNCHECKED,
    results_upload_confirm,
    results_upload_create,
    results_upload_discard,
    results_upload_resolve,
)
from office.models import ApiToken

router = Router(tags=["uploads"], auth=TokenAuth())

ERRORS = {code: ErrorOut for code in (400, 401, 403, 404, 409, 413, 429)}
IdempotencyKey = Annotated[
    str,
    Header(
        alias="Idempotency-Key",
        pattern=IDEMPOTENCY_KEY_PATTERN,
        description="1 to 100 visible ASCII characters, new for each new request (a UUID): a retry with the "
        "same key gets the first answer and writes nothing again.",
    ),
]


def _answer(request, status: int, body: dict, *, key: str = "", replayed: bool = False) -> JsonResponse:
    """The answer to a call with a token, audited; a replayed one says so (``Idempotent-Replayed``)."""
    api_call_audit(token=request.auth, request=request, status=status, key=key, replayed=replayed)
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _once(request, key: str, payload, write) -> JsonResponse:
    status, body, replayed = api_call_once(
        token=request.auth, key=key, digest=request_digest(request, payload), write=write
    )
    return _answer(request, status, body, key=key, replayed=replayed)


def _facts_form(request, token: ApiToken, file) -> ResultUploadForm:
    """The upload page's form for the token's organiser, bound to the call's fields and file."""
    federation = token.federation
    scheme = federation.scheme_info
    organiser = token.club or token.region
    value = f"{'club' if token.club_id else 'region'}:{organiser.pk}"
    today = timezone.localdate()
    choices = [(value, str(organiser), organiser)]
    data = request.POST.copy()
    data["organiser"] = value
    return scheme.upload_form(
        data,
        {"file": file},
        organisers=[(value, str(organiser))],
        scheme=scheme,
        **scheme.upload_form.inputs(federation, choices, today),
    )


def _form_refusal(form: ResultUploadForm, file) -> ApiError:
    (field, errors), *_rest = form.errors.get_json_data().items()
    too_large = field == "file" and file.size > settings.RESULTS_UPLOAD_MAX_BYTES
    field_name = None if field == "__all__" else field
    return ApiError(
        413 if too_large else 400,
        "FILE_TOO_LARGE" if too_large else "INVALID_FACTS",
        errors[0]["message"],
        field=field_name,
        params={"errors": {name: [e["message"] for e in found] for name, found in form.errors.get_json_data().items()}},
    )


@router.post("/uploads", response={201: UploadOut, **ERRORS}, url_name="uploads")
def upload_create(
    request, file: File[UploadedFile], facts: Form[UploadFactsIn], idempotency_key: IdempotencyKey
) -> JsonResponse:
    """Send a results file (USEBIO, PBN or our CSV; at most 5 MB) with the facts the file cannot say: it is
    stored and checked as on the upload page, and the answer is its preview (201)."""
    token = request.auth
    form = _facts_form(request, token, file)
    if not form.is_valid():
        raise _form_refusal(form, file)
    data = form.cleaned_data["file"].read()
    organiser_kind = token.region.kind if token.region_id else "club"
    upload_facts = form.facts(organiser_kind=organiser_kind)
    payload = {"facts": sorted(request.POST.lists()), "file": [file.name, hashlib.sha256(data).hexdigest()]}

    def write():
        try:
            created = results_upload_create(
                actor=token.created_by,
                federation=token.federation,
                club=token.club,
                region=token.region,
                data=data,
                filename=file.name or "results",
                facts=upload_facts,
            )
        except DjangoValidationError as error:
            status = {"FILE_TOO_LARGE": 413, "UPLOAD_QUOTA": 429}.get(error.code, 400)
            raise service_refusal(error, status=status) from None
        return 201, upload_json(request, created)

    return _once(request, idempotency_key, payload, write)


@router.get("/uploads/{upload_id}", response={200: UploadOut, **ERRORS}, url_name="upload")
def upload_detail(request, upload_id: int) -> JsonResponse:
    """The upload and its preview as the upload page checks it now: the event, every issue (code, where,
    params, message), the players still to resolve, and the awards a confirm would write."""
    upload = token_upload(request.auth, upload_id)
    return _answer(request, 200, upload_json(request, upload))


@router.post("/uploads/{upload_id}/resolutions", response={200: UploadOut, **ERRORS}, url_name="upload_resolutions")
def upload_resolve(request, upload_id: int, body: ResolutionsIn, idempotency_key: IdempotencyKey) -> JsonResponse:
    """Resolve players of the file, as the preview page does: a member by number, a guest (no points), or the
    office's case (no points until it decides); one transaction for all of them. The answer is the preview."""
    upload = token_upload(request.auth, upload_id)
    keys = {line.key for line in build_preview(upload, suggest=False).player_lines}
    for index, item in enumerate(body.resolutions):
        if item.player_key not in keys:
            message = _("The file has no player %(key)s: use a key from the preview's unresolved players.")
            raise ApiError(
                400, "PLAYER_KEY_UNKNOWN", message % {"key": item.player_key}, field=f"resolutions.{index}.player_key"
            )
        if item.resolution == "member" and not item.number.strip():
            message = _("Give the member's registration number.")
            raise ApiError(400, "NUMBER_MISSING", message, field=f"resolutions.{index}.number")

    def write():
        for item in body.resolutions:
            results_upload_resolve(
                actor=request.auth.created_by,
                upload=upload,
                player_key=item.player_key,
                resolution=item.resolution,
                number=item.number,
            )
        upload.refresh_from_db()
        return 200, upload_json(request, upload)

    return _once(request, idempotency_key, body.dict(), write)


@router.post("/uploads/{upload_id}/confirm", response={200: UploadOut, **ERRORS}, url_name="upload_confirm")
def upload_confirm(request, upload_id: int, body: ConfirmIn, idempotency_key: IdempotencyKey) -> JsonResponse:
    """Confirm: the tournament and its awards are written to the ledger in one transaction, or nothing is
    (409 with the code: ``HAS_ERRORS``, ``WARNINGS`` when they are not acknowledged, ``CONFIRMED_MEANWHILE``
    when ``replaces`` is not the version now current). A re-upload of an event supersedes the earlier one."""
    upload = token_upload(request.auth, upload_id)
    expected = body.replaces if "replaces" in body.model_fields_set else UNCHECKED

    def write():
        results_upload_confirm(
            actor=request.auth.created_by,
            upload=upload,
            acknowledge_warnings=body.acknowledge_warnings,
            expected_previous=expected,
        )
        upload.refresh_from_db()
        return 200, upload_json(request, upload)

    return _once(request, idempotency_key, body.dict(), write)


@router.post("/uploads/{upload_id}/discard", response={200: UploadOut, **ERRORS}, url_name="upload_discard")
def upload_discard(request, upload_id: int, idempotency_key: IdempotencyKey) -> JsonResponse:
    """Discard a pending upload: nothing of it is awarded."""
    upload = token_upload(request.auth, upload_id)

    def write():
        results_upload_discard(actor=request.auth.created_by, upload=upload)
        upload.refresh_from_db()
        return 200, upload_json(request, upload)

    return _once(request, idempotency_key, {}, write)
