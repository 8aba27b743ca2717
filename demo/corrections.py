"""A few corrections in the demo history, so the player pages show them as such, and the window in which
the demo players may ask for more.

Two sorts: a tournament uploaded again with its top two pairs swapped (reversals of the first version,
awards of the second) and awards adjusted by the office.
"""

from __future__ import annotations

from datetime import date, timedelta

from demo.profiles import DEMO_PROFILES
from federation.models import Federation
from masterpoints.corrections.services import correction_window_check, transition_period_end
from masterpoints.ledger import awards_reverse_tournament
from masterpoints.models import Award, CorrectionWindow
from tournaments.models import Entry, Participation, RankingGroup, Tournament


def corrections_create(federation: Federation) -> int:
    """Re-upload every 40th of the federation's 200 latest demo tournaments (those with four awards or
    more) and adjust the points of up to ten recent prize winners; returns the number of awards written."""
    written = 0
    latest = Tournament.objects.filter(federation=federation, event_key__startswith="demo:").order_by("-date", "-pk")
    for old in list(latest[:200:40]):
        written += _reupload(federation, old)
    return written + _office_adjustments(federation)


def _reupload(federation: Federation, old: Tournament) -> int:
    """Supersede ``old`` by a corrected version whose first two pairs swapped places: ``old``'s awards are
    reversed and the new version's awarded, and its stored results are ``old``'s with the two places
    swapped. Nothing for a tournament with fewer than four awards. Returns the number of awards written."""
    awards = list(old.awards.filter(source=Award.Source.RESULT).order_by("place_first", "pk"))
    if len(awards) < 4:
        return 0
    written = awards_reverse_tournament(actor=None, tournament=old, reason="superseded by a re-upload (demo)")
    Tournament.objects.filter(pk=old.pk).update(is_current=False)
    new = Tournament.objects.create(
        federation=federation,
        organiser_kind=old.organiser_kind,
        club=old.club,
        region=old.region,
        playing_time=old.playing_time,
        name=f"{old.name}{DEMO_PROFILES[federation.scheme].correction_suffix}",
        event_key=old.event_key,
        date=old.date,
        form=old.form,
        category=old.category,
        boards=old.boards,
        strengths=old.strengths,
        file_info=old.file_info,
        supersedes=old,
    )
    # The corrected file swaps the first two pairs: each pair gets the other's points, place and explanation.
    first = [a for a in awards if a.place_first == 1]
    second = [a for a in awards if a.place_first == 2]
    swapped = [(a, b.units, 2, b.explanation_ref_id) for a in first for b in second[:1]]
    swapped += [(b, a.units, 1, a.explanation_ref_id) for b in second for a in first[:1]]
    rest = [(a, a.units, a.place_first, a.explanation_ref_id) for a in awards if a.place_first > 2]
    new_awards = [
        Award(
            federation=federation,
            player_id=award.player_id,
            kind=award.kind,
            units=units,
            source=Award.Source.RESULT,
            tournament=new,
            part=award.part,
            place_first=place,
            place_last=place,
            explanation_ref_id=explanation,
            awarded_on=award.awarded_on,
        )
        for award, units, place, explanation in swapped + rest
    ]
    Award.objects.bulk_create(new_awards)
    _copy_results(old, new, swapped={1: 2, 2: 1})
    return written + len(new_awards)


def _copy_results(old: Tournament, new: Tournament, *, swapped: dict[int, int]) -> None:
    """Store ``old``'s ranking groups, entries and players as ``new``'s, the places in ``swapped`` exchanged
    (an untied entry on 1 goes to 2 and back), as a confirmed upload stores the corrected file: the what-if
    run replays the stored results (transition rule 8, H-13), the public page shows them."""
    for group in old.groups.prefetch_related("entries__participations"):
        copy = RankingGroup.objects.create(
            tournament=new, key=group.key, name=group.name, row_number=group.row_number, field_size=group.field_size
        )
        for entry in group.entries.all():
            untied = entry.place_first == entry.place_last
            place = swapped.get(entry.place_first, entry.place_first) if untied else entry.place_first
            moved = Entry.objects.create(
                group=copy,
                key=entry.key,
                number=entry.number,
                name=entry.name,
                place_first=place,
                place_last=place if untied else entry.place_last,
                score=entry.score,
                percentage=entry.percentage,
            )
            Participation.objects.bulk_create(
                Participation(
                    entry=moved,
                    player_id=participation.player_id,
                    name_in_file=participation.name_in_file,
                    id_in_file=participation.id_in_file,
                    boards_played=participation.boards_played,
                    resolution=participation.resolution,
                )
                for participation in entry.participations.all()
            )


def _office_adjustments(federation: Federation) -> int:
    """Corrections of the scheme's default kind for up to ten recent prize winners of that kind, one a day
    back from today, alternately 3 units taken away (points entered twice) and 5 granted; returns how many.
    Each had won at least 3 units of the kind, so no balance falls below 0 (as the commission's own
    corrections never let it)."""
    kind = federation.scheme_info.default_category
    players = list(
        Award.objects.filter(federation=federation, source=Award.Source.RESULT, kind=kind, units__gte=3)
        .order_by("-awarded_on", "player_id")
        .values_list("player_id", flat=True)[:300:30]
    )
    today = date.today()
    corrections = [
        Award(
            federation=federation,
            player_id=player_id,
            kind=kind,
            units=5 if index % 2 else -3,
            source=Award.Source.CORRECTION,
            reason="Correction granted by the commission (demo)" if index % 2 else "Points entered twice (demo)",
            awarded_on=today - timedelta(days=index),
        )
        for index, player_id in enumerate(dict.fromkeys(players))
    ]
    Award.objects.bulk_create(corrections)
    return len(corrections)


def correction_window_open(federation: Federation, today: date) -> CorrectionWindow | None:
    """Where the federation's rules take corrections only in a window (HBS transition rule 6, H-12), open
    one that began 30 days before ``today`` and runs to the end of its one-year period, so the demo player
    can file a request; nothing where the rules set no window (DBf) or the federation has one already."""
    info = federation.scheme_info
    if not info.correction_window_rule or CorrectionWindow.objects.filter(federation=federation).exists():
        return None
    opens_on = today - timedelta(days=30)
    window = CorrectionWindow(
        federation=federation,
        opens_on=opens_on,
        closes_on=transition_period_end(opens_on, info.correction_window_years),
        note="Demo transition period (seed_demo)",
    )
    correction_window_check(window)
    window.save()
    return window
