"""From a stored upload to what confirming it would award: parse, check, resolve players, compute.

:func:`build_preview` is a pure read: it parses the stored bytes again, checks them against the register
and the rules, applies the director's resolutions and runs the points engine. The preview page shows
its result, and confirming recomputes it inside the confirming transaction, so what is written is
exactly what was shown for the same file, facts and resolutions. The page itself is served from a stored
summary of the preview (:mod:`masterpoints.uploads.summary`), rebuilt only when what it depends on changed.

Every number that enters from outside is bounded where it enters (design.md § Invariants): a file past the
office's limits (:mod:`masterpoints.uploads.bounds`: entries per event, players per entry, and every value a
confirm writes against its column) is refused right after parsing, before players are looked up or points
computed.
"""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Player
from federation.refusals import Days
from federation.rulesets import rule_sets_on_record, rules_or_built_in
from masterpoints.engine.common import RequestError
from masterpoints.engine_text import reason_text_lazy
from masterpoints.uploads import claims, names, scoring
from masterpoints.uploads.bounds import check_bounds
from masterpoints.uploads.lines import Difference, EntryLine, GroupLine, PlayerLine, Preview
from masterpoints.uploads.models import ClubAlias, club_id_key
from tournaments.importers import parse_results
from tournaments.importers.model import Entry, Participant
from tournaments.issues import Issue, Location, Severity
from tournaments.issues.file_codes import FILE_CODES
from tournaments.models import ResultUpload, Tournament
from tournaments.sanctions import selectors as sanctions


def build_preview(
    upload: ResultUpload, *, data: bytes | None = None, today: datetime.date | None = None, suggest: bool = True
) -> Preview:
    """Everything confirming ``upload`` would do, with every issue found (never fails on bad input).

    ``data`` replaces the stored file for an upload not saved yet (``import_results --dry-run``). ``suggest``:
    the members each player to resolve may be (:func:`masterpoints.uploads.names.attach_suggestions`), which
    only the director's preview shows; the confirm, which checks and writes, leaves them out (a search of the
    register per player: for a file naming many players, most of the confirm's time).
    """
    if data is None:
        with upload.file.open("rb") as handle:
            data = handle.read()
    # The director's choice of encoding, if any (``results_upload_choose_encoding``): forces the decoding.
    result = parse_results(
        data,
        upload.original_name,
        fallback_encodings=upload.federation.scheme_info.fallback_encodings,
        encoding=upload.facts.get("encoding") or None,
    )
    preview = Preview(upload=upload, event=result.event, issues=list(result.issues))
    event = result.event
    if event is None:
        return preview
    bounds = check_bounds(event)
    if bounds:
        preview.issues += bounds
        return preview
    claims.resolve_playing_time(preview)
    _check_event(preview, today or timezone.localdate())
    lines = _resolve_players(preview, suggest=suggest)
    _drop_resolved_id_missing(preview, lines)
    preview.groups = [
        GroupLine(
            group=group, row_number=index + 1, entries=[EntryLine(entry, lines[entry.key]) for entry in group.entries]
        )
        for index, group in enumerate(event.groups)
    ]
    for group_line in preview.groups:
        for entry_line in group_line.entries:
            for player_line in entry_line.players:
                player_line.group = group_line.group.name or group_line.group.key
    claims.top16_entrants(preview, [line.player for line in preview.player_lines if line.receives_points])
    if preview.sanction_row is not None:
        preview.issues += sanctions.sanction_check_after(
            sanction=preview.sanction_row,
            players=[line.player if line.receives_points else None for line in preview.player_lines],
            no_outside_entries_refused=bool(upload.facts.get("no_outside_entries_refused")),
        )
    if not any(issue.severity == Severity.ERROR and _blocks_computation(issue) for issue in preview.issues):
        _compute(preview)
    _compare_with_previous(preview)
    return preview


def _blocks_computation(issue) -> bool:
    """Player issues do not stop the computation (the preview still shows the points); file issues do."""
    return issue.code in FILE_CODES or issue.code in (
        "CATEGORY_NOT_ALLOWED",
        "BOARDS_UNKNOWN",
        *sanctions.CLAIM_REFUSALS,
        "SANCTION_USED",
    )


def _check_event(preview: Preview, today: datetime.date) -> None:
    upload, event, facts = preview.upload, preview.event, preview.upload.facts
    if upload.club_id and event.club_number and _same_number(event.club_number, upload.club.number) is False:
        preview.issues.append(_club_issue(upload, event.club_number))
    if event.date and event.date > today:
        preview.issues.append(Issue("DATE_IN_FUTURE", params={"date": event.date}))
    organiser_kind = facts.get("organiser_kind", "club")
    category = facts.get("category")
    info = preview.scheme
    # What the organiser awards by the rule set of the day (DBf § 403, HBS H-1), and what the rule book adds
    # to it (its plugin's ``awards_beyond``: a listed HBS event's kinds, a granted DBf sanction's).
    allowed = rules_or_built_in(upload.federation, event.date or today).awards_of(organiser_kind)
    allowed = info.awards_beyond(preview, allowed, today)
    # Every kind the upload awards (``facts["kinds"]``: a list entry's, or import_results' --kinds for HBS
    # transition rules 2 and 5), each by what the organiser may award on the event's date (H-1).
    for kind in dict.fromkeys([category, *(kind for kind, _s in facts.get("kinds") or ())]):
        if kind not in allowed:
            organiser = str(upload.club or upload.region or upload.federation)
            params = {"organiser": organiser, "category": kind, "rule": info.award_rule}
            preview.issues.append(Issue("CATEGORY_NOT_ALLOWED", params=params))
    _note_form_by_matches(preview)
    # An office entry states each player's boards itself and D-Q34 spreads them evenly: nothing is estimated.
    if scoring.event_form(preview) == "teams" and not facts.get("office_form"):
        for entry in event.entries():
            for player in entry.players:
                if (
                    player.boards_played is not None
                    and entry.boards_played
                    and player.boards_played < entry.boards_played
                ):
                    params = {"player": player.name, "boards": player.boards_played, "team_boards": entry.boards_played}
                    preview.issues.append(Issue("TEAM_SHARE_ESTIMATED", player.where, params))
    if not (facts.get("boards") or event.boards_played or event.boards_declared):
        preview.issues.append(Issue("BOARDS_UNKNOWN"))
    _note_zero_boards(preview)
    duplicate = (
        ResultUpload.objects.filter(
            federation=upload.federation, sha256=upload.sha256, status=ResultUpload.Status.CONFIRMED
        )
        .exclude(pk=upload.pk or 0)
        .first()
    )
    if duplicate:
        preview.issues.append(Issue("DUPLICATE_FILE", params={"date": timezone.localdate(duplicate.confirmed_at)}))


def _note_form_by_matches(preview: Preview) -> None:
    """The form the file's matches make (DBf § 421A, D-Q61: :func:`scoring.form_by_matches`): named when it sets
    the form left to the file (MINIHOLD_BY_MATCHES), a warning when it contradicts the declared one."""
    found = scoring.form_by_matches(preview)
    declared = preview.upload.facts.get("form")
    boards = sorted({match.boards for match in preview.event.matches if match.opponent is not None})
    params = {"boards": ", ".join(str(b) for b in boards)}
    if found == "minihold" and not declared:
        preview.issues.append(Issue("MINIHOLD_BY_MATCHES", params=params))
    elif found is not None and declared in ("teams", "minihold") and declared != found:
        preview.issues.append(Issue("FORM_CONTRADICTS_MATCHES", params={**params, "declared": declared}))


def _note_zero_boards(preview: Preview) -> None:
    """ZERO_BOARDS (§ 405B1): every entry or player the file records with 0 boards, which the scoring takes as
    absent: named, so that the preview never pays differently from the file in silence."""
    for entry in preview.event.entries():
        names = " & ".join(player.name for player in entry.players if player.name) or f"#{entry.number}"
        if entry.boards_played == 0:
            preview.issues.append(Issue("ZERO_BOARDS", entry.where, {"who": names}))
            continue
        for player in entry.players:
            if player.boards_played == 0:
                preview.issues.append(Issue("ZERO_BOARDS", player.where, {"who": player.name or names}))


def _club_issue(upload: ResultUpload, file_club: str) -> Issue:
    """CLUB_MISMATCH, or the notice CLUB_ALIAS when the club recorded the file's club id as its own (D-Q40)."""
    alias = ClubAlias.objects.filter(
        federation_id=upload.federation_id, club_id=upload.club_id, file_club_id=club_id_key(file_club)
    ).first()
    params = {"file_club": file_club, "club": upload.club.number}
    if alias is None:
        return Issue("CLUB_MISMATCH", Location(path="CLUB"), params)
    return Issue("CLUB_ALIAS", Location(path="CLUB"), {**params, "date": timezone.localdate(alias.recorded_at)})


def _same_number(a: str, b: str) -> bool:
    """Club and member numbers compare as written, or as numbers when both are digits (``0555002`` = ``555002``)."""
    a, b = a.strip(), b.strip()
    return a == b or (a.isdecimal() and b.isdecimal() and int(a) == int(b))


def _lookup_keys(number: str) -> list[str]:
    number = number.strip()
    keys = [number]
    if number.isdigit():
        keys.append(number.lstrip("0") or "0")
    return keys


def _drop_resolved_id_missing(preview: Preview, lines: dict[str, list[PlayerLine]]) -> None:
    """The importer's ``ID_MISSING`` (a player without a number) is for the director to resolve: once the
    player is resolved (a member, a guest, the office; chosen or remembered), it is answered and goes."""
    answered = {
        (line.where, line.name) for group in lines.values() for line in group if line.resolution != "unresolved"
    }
    preview.issues = [
        issue
        for issue in preview.issues
        if not (issue.code == "ID_MISSING" and (issue.where, issue.params.get("name")) in answered)
    ]


def _resolve_players(preview: Preview, *, suggest: bool) -> dict[str, list[PlayerLine]]:
    """Match every participant to a member by number, apply the director's resolutions, and report
    unknown or missing numbers (an upload never creates a player: design.md § Invariants)."""
    upload, event = preview.upload, preview.event
    wanted: set[str] = set()
    for entry in event.entries():
        for participant in entry.players:
            if participant.national_id:
                wanted.update(_lookup_keys(participant.national_id))
    for resolution in upload.resolutions.values():
        if resolution.get("number"):
            wanted.update(_lookup_keys(resolution["number"]))
    register = {p.number: p for p in Player.objects.filter(federation=upload.federation, number__in=wanted)}
    remembered = names.remembered_for(
        upload, {names.remembered_key(p.name, p.national_id) for entry in event.entries() for p in entry.players}
    )

    def find(number: str) -> Player | None:
        return next((register[key] for key in _lookup_keys(number) if key in register), None)

    lines: dict[str, list[PlayerLine]] = {}
    seen: dict[tuple, PlayerLine] = {}
    # A compound event's stages are sessions the same pair plays one after the other (rule 7, H-16): a member
    # is there once per session; the engine refuses a member in two pairs.
    per_session = scoring.is_compound(preview)
    for entry in event.entries():
        lines[entry.key] = []
        for index, participant in enumerate(entry.players):
            line = _resolve_one(preview, entry, index, participant, find, remembered)
            lines[entry.key].append(line)
            if line.player is not None and line.resolution == "member":
                slot = (entry.session if per_session else None, line.player.pk)
                if slot in seen:
                    other = seen[slot]
                    preview.issues.append(
                        Issue(
                            "PLAYER_TWICE",
                            participant.where,
                            {
                                "number": line.player.number,
                                "where_a": other.where.label,
                                "where_b": line.where.label,
                                "key": line.key,
                            },
                        )
                    )
                seen[slot] = line
                if line.player.status != Player.Status.MEMBER:
                    preview.issues.append(
                        Issue(
                            "PLAYER_NOT_MEMBER",
                            participant.where,
                            {"player": str(line.player), "status": line.player.get_status_display()},
                        )
                    )
    if suggest:
        every = [line for group in lines.values() for line in group]
        names.attach_suggestions(every, upload=upload, on_date=event.date or timezone.localdate())
    return lines


def _resolve_one(
    preview: Preview, entry: Entry, index: int, participant: Participant, find, remembered: dict
) -> PlayerLine:
    """One player: the director's resolution on this upload, else the club's remembered one for the name and
    number, else the number's member, whose name must fit the file's (``NAME_MISMATCH``, a warning)."""
    key = f"{entry.key}#{index + 1}"
    name = participant.name or str(_("(no name)"))
    line = PlayerLine(
        key=key,
        name=name,
        id_in_file=participant.national_id,
        boards_played=participant.boards_played,
        player=None,
        resolution="unresolved",
        where=participant.where,
        place_first=entry.place_first,
        place_last=entry.place_last,
        unnamed=not participant.name,
    )
    chosen = preview.upload.resolutions.get(key)
    if chosen:
        line.resolution = chosen["resolution"]
        if line.resolution == "member":
            line.player = find(chosen.get("number", ""))
            if line.player is None:
                line.resolution = "unresolved"
                preview.issues.append(
                    Issue(
                        "RESOLUTION_NUMBER_UNKNOWN",
                        participant.where,
                        {"number": chosen.get("number"), "name": name, "key": key},
                    )
                )
        return line
    earlier = remembered.get(names.remembered_key(participant.name, participant.national_id))
    if earlier is not None:
        line.player, line.resolution, line.remembered = earlier, "member", True
        params = {"name": name, "number": participant.national_id or "–", "player": str(earlier)}
        preview.issues.append(Issue("RESOLUTION_REMEMBERED", participant.where, params))
        return line
    if participant.national_id:
        line.player = find(participant.national_id)
        if line.player is not None:
            line.resolution = "member"
            if names.is_mismatch(participant.name or "", line.player):
                line.name_mismatch = True
                params = {"name": name, "number": participant.national_id, "register": line.player.full_name}
                preview.issues.append(Issue("NAME_MISMATCH", participant.where, {**params, "key": key}))
            return line
        preview.issues.append(
            Issue("PLAYER_UNKNOWN", participant.where, {"name": name, "number": participant.national_id, "key": key})
        )
    else:
        preview.issues.append(Issue("PLAYER_UNIDENTIFIED", participant.where, {"name": name, "key": key}))
    return line


def _compute(preview: Preview) -> None:
    """Run the engine over every ranking group and attach each player's awards to their line."""
    by_key = {line.key: line for line in preview.player_lines}
    try:
        result = scoring.compute(preview)
    except RequestError as error:
        preview.issues.append(Issue("ENGINE_REFUSED", params={"field": error.field, "message": error.message}))
        return
    except LookupError:
        preview.issues.append(_ruleset_missing(preview))
        return
    for award in result.awards:
        by_key[award.player].awards.append(award)
    for key, (first, last) in result.places.items():  # a compound event's final result (H-16)
        by_key[key].place_first, by_key[key].place_last = first, last
    preview.issues += result.issues
    for group_name, reason in result.nothing_awarded:
        # The engine's Reason (or None): translated by its code and parameters when the page shows it.
        issue = Issue("NOTHING_AWARDED", params={"group": group_name, "reason": reason_text_lazy(reason)})
        preview.issues.append(issue)
    _compare_supplied_awards(preview)


def _ruleset_missing(preview: Preview) -> Issue:
    """RULESET_MISSING naming the rule sets on record with their dates, so the director knows
    what to ask the secretariat for."""
    found = rule_sets_on_record(preview.upload.federation)
    listed = tuple(Days(valid_from, name=name) for name, valid_from in found) or "–"
    return Issue("RULESET_MISSING", params={"date": preview.event.date, "rule_sets": listed})


def _compare_supplied_awards(preview: Preview) -> None:
    """Where the file carries the scoring program's own awards, say where ours differ (formats.md § 1.5.5).

    The program's units are its own federation's, so this is information for the director, never a check.
    """
    for group in preview.groups:
        for line in group.entries:
            theirs = [award for award in line.entry.supplied_awards if award.amount]
            ours = line.awards
            if not theirs and not ours:
                continue
            their_text = ", ".join(f"{a.amount}{f' {a.kind}' if a.kind else ''}" for a in theirs) or "0"
            our_text = ", ".join(f"{amount} {kind}" for kind, amount in ours) or "0"
            if theirs and their_text != our_text:
                preview.issues.append(
                    Issue(
                        "AWARD_DIFFERS",
                        line.entry.where,
                        {"entry": line.entry.number, "theirs": their_text, "ours": our_text},
                    )
                )


def _compare_with_previous(preview: Preview) -> None:
    """A re-upload of the same event supersedes the earlier version: show the differences per player."""
    upload = preview.upload
    previous = (
        Tournament.objects.current()
        .filter(federation=upload.federation, event_key__in=preview.event_keys)
        .exclude(upload_id=upload.pk or 0)
        .first()
    )
    if previous is None:
        return
    preview.previous = previous
    preview.issues.append(Issue("SUPERSEDES", params={"date": timezone.localdate(previous.created_at)}))
    before: dict[tuple[int, str], int] = {}
    players: dict[int, Player] = {}
    for award in previous.awards.select_related("player"):
        before[(award.player_id, award.kind)] = before.get((award.player_id, award.kind), 0) + award.units
        players[award.player_id] = award.player
    after: dict[tuple[int, str], int] = {}
    for line, award in preview.ledger_awards:
        after[(line.player.pk, award.kind)] = after.get((line.player.pk, award.kind), 0) + award.units
        players[line.player.pk] = line.player
    for key in sorted(set(before) | set(after), key=lambda k: (players[k[0]].last_name, players[k[0]].number, k[1])):
        if before.get(key, 0) != after.get(key, 0):
            preview.differences.append(Difference(players[key[0]], key[1], before.get(key, 0), after.get(key, 0)))
