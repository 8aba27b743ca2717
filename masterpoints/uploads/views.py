"""The results upload (club directors, region officers, secretariat): upload, preview and resolve, discard,
confirm."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Page, Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from clubs.models import Club
from masterpoints.uploads import names, summary
from masterpoints.uploads.aliases import club_alias_record
from masterpoints.uploads.filters import ResultUploadFilter
from masterpoints.uploads.forms import (
    ConfirmForm,
    EncodingForm,
    PlayingTimeForm,
    ResolutionForm,
    resolve_table_choices,
)
from masterpoints.uploads.questions import question_forms
from masterpoints.uploads.resolving import (
    results_upload_accept_suggestions,
    results_upload_remaining_held,
    results_upload_resolve_many,
)
from masterpoints.uploads.selectors import (
    upload_organisers,
    upload_playing_times,
    uploads_list,
)
from masterpoints.uploads.services import (
    UNCHECKED,
    check_organiser,
    results_upload_choose_encoding,
    results_upload_choose_playing_time,
    results_upload_confirm,
    results_upload_create,
    results_upload_discard,
    results_upload_forget_preview,
    results_upload_preview,
    results_upload_resolve,
)
from masterpoints.uploads.tables import ResultUploadTable
from office.access import can_act_for_club, is_secretariat
from tournaments.models import ResultUpload

#: Entries of the results table on one page (``?page=``) and players to resolve on one page of their list
#: (``?players=``): a page stays a few hundred KB whatever the file holds.
ENTRIES_PER_PAGE = 100
PLAYERS_PER_PAGE = 25
PAGE_PARAMETERS = ("page", "players")


class ResultUploadListView(LoginRequiredMixin, SingleTableMixin, FilterView):
    """ "My uploads": the user's own uploads, or with ``?club=`` every upload of a club they may act
    for (a director their own clubs, the secretariat its federation's); another club's list is refused (403)."""

    table_class = ResultUploadTable
    filterset_class = ResultUploadFilter
    template_name = "masterpoints/uploads/resultupload_list.html"
    paginate_by = 50

    def get_queryset(self):
        raw = self.request.GET.get("club") or ""
        if not raw:
            return uploads_list(user=self.request.user)
        if not (raw.isascii() and raw.isdecimal() and len(raw) <= 18):
            raise Http404(_("There is no such club."))
        club = get_object_or_404(Club, pk=int(raw))
        if not can_act_for_club(self.request.user, club):
            raise PermissionDenied(
                _("You may see the uploads of your own clubs only; %(club)s is not one of them.") % {"club": club.name}
            )
        return uploads_list(user=self.request.user, club=club)


@login_required
def upload(request):
    """Step 1: the file and the facts the rules need that no results file states."""
    organisers = upload_organisers(request.user)
    if not organisers:
        raise PermissionDenied(_("Only club directors, region officers and the secretariat upload results."))
    federation = next(iter(organisers))
    wanted = request.GET.get("federation")
    for candidate in organisers:
        if str(candidate.pk) == wanted:
            federation = candidate
    choices = organisers[federation]
    scheme = federation.scheme_info
    form = scheme.upload_form(
        request.POST or None,
        request.FILES or None,
        organisers=[(value, label) for value, label, _obj in choices],
        scheme=scheme,
        **scheme.upload_form.inputs(federation, choices, timezone.localdate()),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        organiser = next(obj for value, _label, obj in choices if value == data["organiser"])
        kind = data["organiser"].split(":", 1)[0]
        club = organiser if kind == "club" else None
        region = organiser if kind == "region" else None
        facts = form.facts(organiser_kind=region.kind if region else kind)
        file = data["file"]
        try:
            created = results_upload_create(
                actor=request.user,
                federation=federation,
                club=club,
                region=region,
                data=file.read(),
                filename=file.name,
                facts=facts,
            )
        except ValidationError as error:
            form.add_error("file", error)
        else:
            return redirect("uploads:preview", created.pk)
    return render(
        request,
        "masterpoints/uploads/upload_form.html",
        {"form": form, "federation": federation, "federations": list(organisers)},
    )


def _own_upload(request, pk: int) -> ResultUpload:
    upload = get_object_or_404(ResultUpload.objects.select_related("federation", "club", "region"), pk=pk)
    check_organiser(actor=request.user, federation=upload.federation, club=upload.club, region=upload.region)
    return upload


def _page(items: list, raw: str | None, per_page: int) -> Page:
    """Page ``raw`` of ``items``, as the query string gives it: missing is the first, a number past the last
    page is the last (0 the first); anything but digits is no page at all (404)."""
    paginator = Paginator(items, per_page)
    if raw is None or raw == "":
        return paginator.page(1)
    if not (raw.isascii() and raw.isdecimal()):
        raise Http404(_("There is no such page."))
    number = int(raw) if len(raw) <= 9 else paginator.num_pages
    return paginator.page(min(max(number, 1), paginator.num_pages))


def _preview_url(upload: ResultUpload, query) -> str:
    """The preview's address with the pages the director was looking at (digits only, anything else dropped)."""
    values = {name: query.get(name) or "" for name in PAGE_PARAMETERS}
    kept = {name: value for name, value in values.items() if value.isascii() and value.isdecimal()}
    url = reverse("uploads:preview", args=[upload.pk])
    return f"{url}?{urlencode(kept)}" if kept else url


def _pager(request, page: Page, name: str) -> list[tuple[object, str | None]]:
    """The links of a pager: (label, address) per page shown, ``None`` for the current page and the gaps."""
    if page.paginator.num_pages <= 1:
        return []
    links = []
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1):
        if number == page.paginator.ELLIPSIS or number == page.number:
            links.append((number, None))
        else:
            query = request.GET.copy()
            query[name] = number
            links.append((number, f"?{query.urlencode()}"))
    return links


def _resolve(request, upload: ResultUpload) -> None:
    resolution = ResolutionForm(request.POST)
    if not resolution.is_valid():
        messages.error(request, " ".join(str(e) for errors in resolution.errors.values() for e in errors))
        return
    try:
        results_upload_resolve(
            actor=request.user,
            upload=upload,
            player_key=resolution.cleaned_data["player_key"],
            resolution=resolution.cleaned_data["resolution"],
            number=resolution.cleaned_data.get("number") or "",
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))


def _to_resolve_rows(page: Page) -> list[dict]:
    """The page's players to resolve as the table shows them: numbered in the whole list, each suggestion
    with its reason in the reader's language."""
    return [
        {
            **line,
            "index": index,
            "where": summary.location_label(line["where"]),
            "suggestions": [{**s, "reason": names.reason_text(s)} for s in line.get("suggestions", [])],
        }
        for index, line in enumerate(page.object_list, start=page.start_index())
    ]


def _preview_context(request, upload: ResultUpload) -> dict:
    stored = results_upload_preview(upload=upload)
    entries = _page(stored["rows"], request.GET.get("page"), ENTRIES_PER_PAGE)
    players = _page(stored["unresolved"], request.GET.get("players"), PLAYERS_PER_PAGE)
    return {
        "upload": upload,
        "summary": stored,
        "event": summary.shown_event(stored),
        "points": summary.shown_points(stored),
        "issues": summary.shown_issues(stored),
        "severities": summary.severity_counts(stored),
        "entries": entries,
        "entries_pager": _pager(request, entries, "page"),
        "sections": summary.shown_sections(stored, list(entries.object_list)),
        "players": players,
        "players_pager": _pager(request, players, "players"),
        "unresolved": _to_resolve_rows(players),
        "confident": sum(1 for line in stored["unresolved"] if line.get("confident")),
        "remaining": sum(1 for line in stored["unresolved"] if line.get("problem") != "mismatch"),
        "page_query": urlencode({name: request.GET[name] for name in PAGE_PARAMETERS if request.GET.get(name)}),
        "encoding_form": EncodingForm(initial={"encoding": upload.facts.get("encoding", "")}),
        **_playing_time_context(upload, stored),
        **_issue_actions(request, upload, stored),
        **question_forms(upload, stored),  # whom a substitute replaced, the count setting the quota (D-Q62, D-Q63)
        "confirm_form": ConfirmForm(),
    }


def _issue_actions(request, upload: ResultUpload, stored: dict) -> dict:
    """What the preview offers beside its issues: recording the file's club id as the club's own
    on CLUB_MISMATCH (D-Q40), and to the secretariat the admin's "add rule set" for the event's date on
    RULESET_MISSING; to the director, whom to ask for it."""
    codes = {item["code"] for item in stored["issue_counts"]}
    event = stored.get("event") or {}
    pending = upload.status == ResultUpload.Status.PENDING
    ruleset_add, ruleset_ask = "", None
    if "RULESET_MISSING" in codes and is_secretariat(request.user, upload.federation):
        query = urlencode({"federation": upload.federation_id, "valid_from": event.get("date") or ""})
        ruleset_add = f"{reverse('admin:federation_ruleset_add')}?{query}"
    elif "RULESET_MISSING" in codes and pending:
        # Who to ask, and that the answer comes back here (masterpoints.uploads.answers).
        ruleset_ask = {"federation": upload.federation.name, "contact": upload.federation.contact_email}
    return {
        "alias_offer": event.get("club_number", "") if pending and "CLUB_MISMATCH" in codes else "",
        "ruleset_add_url": ruleset_add,
        "ruleset_ask": ruleset_ask,
    }


@login_required
def upload_preview(request, pk: int):
    """Step 2: what the file says, every issue, who gets what and why; resolve unknown players here.

    Served from the upload's stored summary (``results_upload_preview``), a page of the table and a page of
    the players to resolve at a time. A POST resolves one player (``ResolutionForm``), as the table does."""
    upload = _own_upload(request, pk)
    if request.method == "POST":
        _resolve(request, upload)
        return redirect(_preview_url(upload, request.GET))
    return render(request, "masterpoints/uploads/upload_preview.html", _preview_context(request, upload))


def _resolved(request, upload: ResultUpload, done: str, errors: list[str]):
    """After a resolution: with htmx, the table, the issues and the confirm section again, saying what was
    done (the page stays where it is); without JavaScript, the preview page again with the same message."""
    if request.htmx:
        upload.refresh_from_db()  # the service wrote the resolutions on its own, locked copy
        context = {**_preview_context(request, upload), "done": done, "errors": errors}
        return render(request, "masterpoints/uploads/upload_preview_resolved.html", context)
    for error in errors:
        messages.error(request, error)
    if done:
        messages.success(request, done)
    return redirect(_preview_url(upload, request.GET))


@login_required
@require_POST
def upload_resolve(request, pk: int):
    """The table of players to resolve: one row (the row's button) or every row with a choice."""
    upload = _own_upload(request, pk)
    choices, errors = resolve_table_choices(request.POST, rows=PLAYERS_PER_PAGE)
    done = ""
    if choices and not errors:
        try:
            count = results_upload_resolve_many(actor=request.user, upload=upload, choices=choices)
        except ValidationError as error:
            errors = list(error.messages)
        else:
            done = ngettext("%(count)s player resolved.", "%(count)s players resolved.", count) % {"count": count}
    elif not choices and not errors:
        errors = [_("Choose what to do with a player first.")]
    return _resolved(request, upload, done, errors)


@login_required
@require_POST
def upload_resolve_all(request, pk: int):
    """ "Accept all suggestions" (``action=suggestions``) or "hold the remaining players' points"
    (``action=held``: provisional players)."""
    upload = _own_upload(request, pk)
    action = request.POST.get("action")
    if action not in ("suggestions", "held"):
        return _resolved(request, upload, "", [_("Unknown action.")])
    try:
        if action == "suggestions":
            count = results_upload_accept_suggestions(actor=request.user, upload=upload)
            done = ngettext("%(count)s suggestion accepted.", "%(count)s suggestions accepted.", count)
        else:
            count = results_upload_remaining_held(actor=request.user, upload=upload)
            done = ngettext(
                "%(count)s player held as a provisional player.",
                "%(count)s players held as provisional players.",
                count,
            )
    except ValidationError as error:
        return _resolved(request, upload, "", list(error.messages))
    if not count:
        done = _("Nothing to do: no player is left that this applies to. Choose in the table.")
    return _resolved(request, upload, done % {"count": count}, [])


@login_required
@require_POST
def upload_encoding(request, pk: int):
    """Read the stored file again with the encoding the director chose (or as detected)."""
    upload = _own_upload(request, pk)
    form = EncodingForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("uploads:preview", upload.pk)
    try:
        results_upload_choose_encoding(actor=request.user, upload=upload, encoding=form.cleaned_data["encoding"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("uploads:preview", upload.pk)


def _playing_time_form(upload: ResultUpload, data=None, playing_times=None) -> PlayingTimeForm | None:
    """The choice of the tournament's playing time (§ 452A) for a club's upload where the rules count by it."""
    if upload.club_id is None or not upload.federation.scheme_info.playing_times:
        return None
    initial = {"playing_time": str(upload.facts.get("playing_time") or "")}
    if playing_times is None:
        playing_times = upload_playing_times(upload)
    return PlayingTimeForm(data, initial=initial, playing_times=playing_times)


def _playing_time_context(upload: ResultUpload, stored: dict) -> dict:
    """The preview's playing time (§ 452A): the one the summary found, by name, and the form to change it."""
    playing_times = upload_playing_times(upload)
    found = (stored.get("event") or {}).get("playing_time")
    return {
        "playing_time_form": _playing_time_form(upload, playing_times=playing_times),
        "playing_time": next((pt for pt in playing_times if pt.pk == found), None),
    }


@login_required
@require_POST
def upload_playing_time(request, pk: int):
    """Record the playing time the director chose for the tournament (§ 452A)."""
    upload = _own_upload(request, pk)
    form = _playing_time_form(upload, request.POST)
    if form is None:
        raise Http404(_("This upload has no playing time to choose."))
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("uploads:preview", upload.pk)
    try:
        results_upload_choose_playing_time(
            actor=request.user, upload=upload, playing_time=form.cleaned_data["playing_time"]
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("uploads:preview", upload.pk)


@login_required
@require_POST
def upload_club_alias(request, pk: int):
    """ "This file is ours": record the file's club id as the upload's club's own (D-Q40)."""
    upload = _own_upload(request, pk)
    try:
        alias = club_alias_record(actor=request.user, upload=upload)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Club id %(id)s is recorded as %(club)s's: files naming it are taken as the club's.")
            % {"id": alias.file_club_id, "club": alias.club},
        )
    return redirect("uploads:preview", upload.pk)


@login_required
@require_POST
def upload_discard(request, pk: int):
    upload = _own_upload(request, pk)
    try:
        results_upload_discard(actor=request.user, upload=upload)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("uploads:preview", upload.pk)
    messages.success(request, _("The upload was discarded; nothing was awarded."))
    return redirect("uploads:upload")


def _replaces(request):
    """The version the director's preview showed this upload replacing (``None``: a new event), as the page
    posts it; not checked when the request does not say (the lock and the constraint still hold)."""
    if "replaces" not in request.POST:
        return UNCHECKED
    raw = request.POST["replaces"]
    return int(raw) if raw.isdecimal() and len(raw) <= 18 else None


@login_required
@require_POST
def upload_confirm(request, pk: int):
    """Step 3 of the upload: write the tournament and its awards, or say why not."""
    upload = get_object_or_404(ResultUpload, pk=pk)
    form = ConfirmForm(request.POST)
    form.is_valid()
    try:
        tournament = results_upload_confirm(
            actor=request.user,
            upload=upload,
            acknowledge_warnings=form.cleaned_data.get("acknowledge_warnings", False),
            expected_previous=_replaces(request),
            expected_payable=request.POST.get("payable", "")[:64] or None,
        )
    except ValidationError as error:
        if error.code in ("points_changed", "has_errors"):  # the page shows the preview as it is now
            results_upload_forget_preview(upload=upload)
        messages.error(request, " ".join(error.messages))
        return redirect("uploads:preview", upload.pk)
    messages.success(request, _("The results are confirmed and the points are in the ledger."))
    return redirect(tournament)
