"""The stored summary of an upload's preview: what the preview page shows, built once, not on every visit.

:func:`~masterpoints.uploads.preview.build_preview` parses the file, looks every player up and runs the
engine: seconds for a large file. The page is served instead from a compact JSON summary stored on the
upload (``ResultUpload.preview_summary``) with the :func:`fingerprint` of what it was built from; the
summary is built again only when the fingerprint changes or it is older than :data:`MAX_AGE`
(``results_upload_preview`` in :mod:`.services`). Confirming never reads it: it recomputes the preview
inside its own transaction, so what is written is exactly what was checked; and the confirm form carries the
:func:`payable_digest` of the summary the director saw (the units each member would be paid and the issues
found), so a confirm whose recomputed preview differs from it is refused naming the players whose points
changed (``POINTS_CHANGED``), and the stored summary is built again (the fingerprint cannot see a rule
set, a sanction or a member's status changed meanwhile, so the page could show other points than are written).

The summary is plain JSON: each issue's message in every language of the site (its parameters may be
lazy, translated words), places as text, amounts as the engine writes them (``30.7``), each explanation
once however many players share it, and the players still to resolve. Issues are listed at most
:data:`ISSUES_PER_CODE` per code, with the count of all.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import json
from collections import Counter
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Count, Max
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from clubs.models import PlayingTime
from federation.models import Player, RuleSet
from federation.schemes import decimals_of
from masterpoints.engine.common import format_units
from masterpoints.uploads import substitutes
from masterpoints.uploads.lines import EntryLine, PlayerLine, Preview
from masterpoints.uploads.models import ClubAlias, RememberedResolution
from tournaments.issues import Location
from tournaments.models import ResultUpload, Tournament

#: Part of the fingerprint: raise it when the summary's shape or what the preview checks changes, so that
#: summaries stored by the earlier code are built again.
SUMMARY_VERSION = 9
#: A stored summary older than this is built again even when its fingerprint holds: the fingerprint
#: cannot see every change of the register (a member's status or name), a rule set, a sanction or the
#: list of recognised tournaments. Confirming checks against the register of its own moment anyway.
MAX_AGE = datetime.timedelta(minutes=5)
#: Issues of one code listed on the page; the summary counts all of them ("and 312 more of this code").
ISSUES_PER_CODE = 10
#: Changes against the earlier version listed on the page; the summary counts all of them.
DIFFERENCES_SHOWN = 500
SEVERITIES = ("error", "warning", "info")


def fingerprint(upload: ResultUpload, *, today: datetime.date) -> str:
    """What the preview of ``upload`` depends on, as a SHA-256: the stored file's hash, the facts (the
    chosen encoding among them), the resolutions, the status, the day (``DATE_IN_FUTURE``) and what can be
    read cheaply of the register: the federation's players (count and newest) and its newest tournament
    (a version confirmed meanwhile is superseded by this one, ``SUPERSEDES``) and the club's remembered
    resolutions (``RESOLUTION_REMEMBERED``) and club ids (``CLUB_ALIAS``), and the federation's rule sets
    (``RULESET_MISSING`` answered)."""
    players = Player.objects.filter(federation_id=upload.federation_id).aggregate(n=Count("pk"), last=Max("pk"))
    tournaments = Tournament.objects.filter(federation_id=upload.federation_id).aggregate(last=Max("pk"))
    remembered = RememberedResolution.objects.filter(club_id=upload.club_id or 0).aggregate(
        n=Count("pk"), last=Max("updated_at")
    )
    aliases = ClubAlias.objects.filter(club_id=upload.club_id or 0).aggregate(n=Count("pk"), last=Max("pk"))
    # A rule set added or changed answers RULESET_MISSING: the next visit computes again.
    rule_sets = list(
        RuleSet.objects.filter(federation_id=upload.federation_id)
        .order_by("pk")
        .values_list("pk", "valid_from", "payload")
    )
    basis = {
        "version": SUMMARY_VERSION,
        "sha256": upload.sha256,
        "facts": upload.facts,
        "resolutions": upload.resolutions,
        "status": upload.status,
        "organiser": [upload.club_id, upload.region_id],
        "today": today.isoformat(),
        "players": [players["n"], players["last"]],
        "tournaments": tournaments["last"],
        "remembered": [remembered["n"], remembered["last"]],
        "aliases": [aliases["n"], aliases["last"]],
        "rule_sets": rule_sets,
    }
    return hashlib.sha256(json.dumps(basis, sort_keys=True, default=str).encode()).hexdigest()


def is_current(upload: ResultUpload, fingerprint: str, now: datetime.datetime) -> bool:
    """Whether the summary stored on ``upload`` was built from ``fingerprint`` less than :data:`MAX_AGE` ago."""
    built = upload.preview_built_at
    return (
        bool(upload.preview_summary)
        and upload.preview_fingerprint == fingerprint
        and built is not None
        and datetime.timedelta(0) <= now - built < MAX_AGE
    )


def payable(preview: Preview) -> dict[str, dict[str, int]]:
    """What the confirm would write: the units of each kind each member is paid, by player id."""
    totals: dict[str, Counter[str]] = {}
    for line, award in preview.ledger_awards:
        totals.setdefault(str(line.player.pk), Counter())[award.kind] += award.units
    return {pk: dict(sorted(kinds.items())) for pk, kinds in sorted(totals.items())}


def units_text(kinds: dict[str, int]) -> str:
    """A member's payable units as text: "16 BP", "1.2 SP + 4 BP", "nothing"."""
    if not kinds:
        return str(_("nothing"))
    return " + ".join(f"{format_units(units, decimals_of(kind))} {kind}" for kind, units in kinds.items())


def payable_digest(paid: dict[str, dict[str, int]], preview: Preview) -> str:
    """The digest the confirm form carries: the payable units, the codes and places of the issues the director
    read (a warning that appeared meanwhile was not ticked) and the playing time the tournament is recorded
    under (§ 452A: it decides the top-16 per playing time later)."""
    issues = sorted((str(issue.severity), issue.code, str(getattr(issue, "where", ""))) for issue in preview.issues)
    playing_time = preview.playing_time.pk if preview.playing_time is not None else None
    basis = json.dumps({"payable": paid, "issues": issues, "playing_time": playing_time}, sort_keys=True)
    return hashlib.sha256(basis.encode()).hexdigest()[:32]


#: Players whose changed points a ``points_changed`` refusal names; the rest are counted.
CHANGES_NAMED = 5


def check_payable(upload: ResultUpload, preview: Preview, expected: str | None) -> None:
    """Refuse when the preview the director confirmed (its digest ``expected``) is not what this confirm
    would write, naming up to :data:`CHANGES_NAMED` players with their points as shown and as now."""
    if expected is None:
        return
    paid = payable(preview)
    if payable_digest(paid, preview) == expected:
        return
    stored = upload.preview_summary or {}
    shown = stored.get("payable", {}) if stored.get("payable_digest") == expected else None
    changed = sorted(pk for pk in set(paid) | set(shown or {}) if (shown or {}).get(pk) != paid.get(pk))
    players = Player.objects.in_bulk([int(pk) for pk in changed[:CHANGES_NAMED]])
    lines = [
        _("%(player)s: %(shown)s shown, %(now)s now")
        % {
            "player": players[int(pk)],
            "shown": units_text((shown or {}).get(pk, {})),
            "now": units_text(paid.get(pk, {})),
        }
        for pk in changed[:CHANGES_NAMED]
        if shown is not None
    ]
    if len(changed) > CHANGES_NAMED and shown is not None:
        lines.append(_("and %(count)s more players") % {"count": len(changed) - CHANGES_NAMED})
    if shown is not None:
        lines += _issue_changes(stored.get("issue_counts", []), summarise_issue_counts(preview))
        before = (stored.get("event") or {}).get("playing_time")
        after = preview.playing_time
        if before != (after.pk if after is not None else None):
            lines.append(
                _("the playing time (§ 452A): %(before)s → %(after)s")
                % {"before": str(PlayingTime.objects.filter(pk=before).first() or "–"), "after": str(after or "–")}
            )
    raise ValidationError(
        _(
            "The results changed since the preview you checked: a rule set, the register, a sanction, a licence "
            "or the recognised list changed meanwhile. %(changes)s Nothing was written; check the preview again "
            "and confirm it."
        ),
        code="points_changed",
        params={"changes": "; ".join(lines) + "." if lines else _("Other issues were found.")},
    )


def _issue_changes(before: list[dict], after: list[dict]) -> list[str]:
    """The issue codes whose count changed between the preview shown and now: "NAME_MISMATCH: 0 → 1"."""
    counted = [{item["code"]: item["count"] for item in counts} for counts in (before, after)]
    return [
        _("%(code)s: %(before)s → %(after)s")
        % {"code": code, "before": counted[0].get(code, 0), "after": counted[1].get(code, 0)}
        for code in sorted(set(counted[0]) | set(counted[1]))
        if counted[0].get(code, 0) != counted[1].get(code, 0)
    ]


def summarise(preview: Preview) -> dict[str, Any]:
    """The JSON the preview page is served from (the module's docstring says what it holds)."""
    explanations: dict[str, int] = {}
    rows = [
        _row(index, line, explanations)
        for index, group_line in enumerate(preview.groups)
        for line in group_line.entries
    ]
    player_lines = preview.player_lines
    ledger = preview.ledger_awards
    unresolved = preview.unresolved
    bad = {line.key for line in unresolved}
    points: Counter[str] = Counter()
    for _line, award in ledger:
        points[award.kind] += award.units
    issues, counts = _issues(preview.issues)
    paid = payable(preview)
    return {
        "version": SUMMARY_VERSION,
        "payable": paid,
        "payable_digest": payable_digest(paid, preview),
        "event": _event(preview),
        "has_errors": preview.has_errors,
        "has_warnings": preview.has_warnings,
        "counts": {
            "groups": len(preview.groups),
            "entries": len(rows),
            "players": len(player_lines),
            "awards": len(ledger),
            "unresolved": len(unresolved),
            "to_resolve": len(preview.to_resolve),
            "differences": len(preview.differences),
        },
        "points": [{"kind": kind, "units": units} for kind, units in points.items()],
        "issue_counts": counts,
        "issues": issues,
        "groups": [
            {
                "key": line.group.key,
                "name": line.group.name or "",
                "field_size": line.group.field_size,
                "ranked_by": line.group.ranked_by,
            }
            for line in preview.groups
        ],
        "rows": rows,
        "explanations": [json.loads(text) for text in explanations],
        "unresolved": [_to_resolve(line, bad) for line in preview.to_resolve],
        "differences": [
            {
                "player": str(d.player),
                "kind": d.kind,
                "before": d.before_amount,
                "after": d.after_amount,
                "change": d.change,
            }
            for d in preview.differences[:DIFFERENCES_SHOWN]
        ],
        "previous": preview.previous.pk if preview.previous is not None else None,
        "sanction": _sanction(preview),
        # What the preview asks the director (D-Q62, D-Q63): substitutes, the count setting the quota.
        "substitutes": substitutes.questions(preview),
        "quota": substitutes.quota_question(preview),
    }


def _to_resolve(line: PlayerLine, unresolved: set[str]) -> dict[str, Any]:
    """A player the page lists to resolve: why (``problem``), the number's member where the name does not
    fit it, and the suggested members with their reasons; ``confident`` when "accept all suggestions" takes
    the first (:func:`masterpoints.uploads.names.is_certain`)."""
    if line.needs_resolution:
        problem = "unknown" if line.id_in_file else "unidentified"
    else:  # a member twice, a chosen number not on the register, or a name that does not fit the number
        problem = "check" if line.key in unresolved else "mismatch"
    return {
        "key": line.key,
        "name": line.name,
        "id_in_file": line.id_in_file or "",
        "where": line.where.as_dict(),
        "problem": problem,
        "register": str(line.player) if line.player is not None else "",
        "suggestions": [suggestion.as_dict() for suggestion in line.suggestions],
        "confident": line.certain,
    }


def _sanction(preview: Preview) -> dict[str, Any] | None:
    """The granted sanction confirming would record (§ 403B1–2, D-Q24), for the page's facts."""
    sanction = preview.sanction_row
    if sanction is None:
        return None
    return {
        "number": sanction.pk,
        "application": sanction.application_id,
        "name": sanction.application.name,
        "category": sanction.category,
        "quota": sanction.quota,
        "date": sanction.date.isoformat(),
    }


def _event(preview: Preview) -> dict[str, Any] | None:
    event = preview.event
    if event is None:
        return None
    return {
        "name": event.name or "",
        "club_number": event.club_number or "",
        "date": event.date.isoformat() if event.date else None,
        "format": event.format,
        "version": event.version or "",
        "dialect": event.dialect,
        "program": event.program or "",
        "encoding": event.encoding.encoding,
        "encoding_method": event.encoding.method,
        "form": event.form,
        "scoring": event.scoring,
        "boards": event.boards_played or event.boards_declared,
        "start_time": event.start_time.strftime("%H:%M") if event.start_time else "",
        # The playing time by its id (its name is shown in the reader's language) and how it was found (§ 452A).
        "playing_time": preview.playing_time.pk if preview.playing_time else None,
        "playing_time_source": preview.playing_time_source,
        "simultaneous_event": str(preview.simultaneous_event) if preview.simultaneous_event else "",
    }


def _row(group: int, line: EntryLine, explanations: dict[str, int]) -> dict[str, Any]:
    """One entry of the table: place, number, score, each player with their awards, the entry's awards."""
    entry = line.entry
    place = "" if entry.place_first is None else str(entry.place_first)
    if entry.tied:
        place = f"{entry.place_first}–{entry.place_last}"
    players = []
    for player in line.players:
        awards = []
        for award in player.awards:
            if award.units:
                text = json.dumps(award.explanation.as_dict(), sort_keys=True)
                index = explanations.setdefault(text, len(explanations))
                awards.append([award.kind, format_units(award.units, decimals_of(award.kind)), index])
        players.append(
            {
                "name": str(player.player) if player.player is not None else player.name,
                # The name as read from the file (its encoding decides it), shown beside the register's.
                "in_file": player.name if player.player is not None and player.name != str(player.player) else "",
                "resolution": player.resolution,
                "awards": awards,
            }
        )
    return {
        "g": group,
        "place": place,
        "number": entry.number,
        "score": "" if entry.score is None else str(entry.score),
        "players": players,
        "awards": [list(pair) for pair in line.awards],
    }


def _issues(found: list) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Issues by severity, then by code in the order found: at most :data:`ISSUES_PER_CODE` of each, each with
    its message in every language of the site; and the count of each severity and code (with those the
    importers only counted, ``ISSUES_CAPPED``). One code can have variants of different severities."""
    by_code: dict[tuple[str, str], list] = {}
    capped: Counter[str] = Counter()
    for issue in found:
        by_code.setdefault((str(issue.severity), issue.code), []).append(issue)
        if issue.code == "ISSUES_CAPPED":
            capped[str(issue.params.get("kind"))] += int(issue.params.get("count") or 0)
    keys = sorted(by_code, key=lambda key: SEVERITIES.index(key[0]))
    listed = [
        {
            "code": code,
            "severity": severity,
            "where": issue.where.as_dict(),
            "message": _in_every_language(issue.message),
        }
        for severity, code in keys
        for issue in by_code[severity, code][:ISSUES_PER_CODE]
    ]
    counts, seen = [], set()
    for severity, code in keys:
        if code == "ISSUES_CAPPED":
            continue
        extra = capped[code] if code not in seen else 0  # the importers' count, added once per code
        seen.add(code)
        counts.append({"code": code, "severity": severity, "count": len(by_code[severity, code]) + extra})
    return listed, counts


def summarise_issue_counts(preview: Preview) -> list[dict[str, Any]]:
    """The count of each severity and code of ``preview``'s issues, as the summary stores them."""
    return _issues(preview.issues)[1]


def _in_every_language(text) -> dict[str, str]:
    values = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            values[code] = str(text)
    return values


def in_reader_language(values: dict[str, str]) -> str:
    """A stored text in the active language, else the site's default language, else any."""
    language = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return values.get(language) or values.get(settings.LANGUAGE_CODE) or next(iter(values.values()), "")


def location_label(where: dict[str, Any]) -> str:
    """A stored location (``Location.as_dict()``) as the active language names it."""
    return str(Location(line=where.get("line"), path=where.get("path"), column=where.get("column")).label)


# --- what the page shows of a stored summary ------------------------------------------------------------


def shown_event(stored: dict[str, Any]) -> dict[str, Any] | None:
    """The event's facts, its date as a date again."""
    event = stored.get("event")
    if event is None:
        return None
    date = datetime.date.fromisoformat(event["date"]) if event.get("date") else None
    return {**event, "date": date}


def shown_points(stored: dict[str, Any]) -> list[dict[str, Any]]:
    """What confirming awards in all, per kind, with the kind's decimals (``units`` filter)."""
    return [{**item, "decimals": decimals_of(item["kind"])} for item in stored["points"]]


def shown_issues(stored: dict[str, Any]) -> list[dict[str, Any]]:
    """The issues by severity and code: each code once, with its count, its listed issues in the reader's
    language and how many more of it there are."""
    counts = {(item["severity"], item["code"]): item["count"] for item in stored["issue_counts"]}
    shown = []
    for (severity, code), listed in itertools.groupby(stored["issues"], key=lambda i: (i["severity"], i["code"])):
        items = [
            {"message": in_reader_language(issue["message"]), "where": location_label(issue["where"])}
            for issue in listed
        ]
        count = counts.get((severity, code), len(items))
        shown.append({"severity": severity, "code": code, "count": count, "items": items, "more": count - len(items)})
    return shown


def severity_counts(stored: dict[str, Any]) -> dict[str, int]:
    totals = dict.fromkeys(SEVERITIES, 0)
    for item in stored["issue_counts"]:
        totals[item["severity"]] += item["count"]
    return totals


def shown_sections(stored: dict[str, Any], rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list]]:
    """The rows of one page of the table by their ranking group, in order. Each row's explanations come once
    (``why``), with the players they are for when not all of the entry's: the partners of a pair or a team
    usually share one, and a page of a hundred teams must not repeat it for every player."""
    explanations, groups = stored["explanations"], stored["groups"]
    sections: list[tuple[dict[str, Any], list]] = []
    for row in rows:
        if not sections or sections[-1][0] is not groups[row["g"]]:
            sections.append((groups[row["g"]], []))
        why: dict[tuple[str, str, int], list[str]] = {}
        for player in row["players"]:
            for kind, amount, index in player["awards"]:
                why.setdefault((kind, amount, index), []).append(player["name"])
        players = [
            {**player, "awards": [{"kind": kind, "amount": amount} for kind, amount, _index in player["awards"]]}
            for player in row["players"]
        ]
        everyone = len(row["players"])
        reasons = [
            {
                "kind": kind,
                "amount": amount,
                "explanation": explanations[index],
                "players": names if len(names) < everyone else [],
            }
            for (kind, amount, index), names in why.items()
        ]
        sections[-1][1].append({**row, "players": players, "why": reasons})
    return sections
