"""The office's one write of the player's record pages: withdrawing a confirmed tournament."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from federation.services import audit_record
from masterpoints.ledger import awards_reverse_tournament
from masterpoints.models import Award
from masterpoints.office_record.models import TournamentWithdrawal
from masterpoints.standings.services import standings_refresh_players
from office.access import is_secretariat
from tournaments.models import Tournament

#: The reason is kept on every reversing row (``Award.reason``, 300 characters) with its prefix.
MAX_REASON = 250


@transaction.atomic
def tournament_withdraw(*, actor, tournament: Tournament, reason: str) -> TournamentWithdrawal:
    """Withdraw ``tournament``: post one reversing entry for each of its awards not reversed yet (the ledger's
    own :func:`~masterpoints.ledger.awards_reverse_tournament`, each row citing the reason), take it off as the
    event's current version (so a later upload of the event is a normal first upload), recompute its players'
    standings and record the withdrawal, audited (``tournament.withdraw``), all in one transaction.

    Secretariat of the tournament's federation only; refused without a reason, for a version a re-upload
    replaced, and for one withdrawn already (two racing withdrawals: the one-to-one key keeps one)."""
    if actor is None or not is_secretariat(actor, tournament.federation):
        raise PermissionDenied(_("Only the secretariat of the tournament's federation withdraws a tournament."))
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError(_("Say why the tournament is withdrawn."), code="REASON_REQUIRED")
    if len(reason) > MAX_REASON:
        raise ValidationError(
            _("The reason is %(length)s characters; at most %(limit)s."),
            params={"length": len(reason), "limit": MAX_REASON},
            code="REASON_TOO_LONG",
        )
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if TournamentWithdrawal.objects.filter(tournament=locked).exists():
        raise ValidationError(_("This tournament was withdrawn already."), code="WITHDRAWN")
    if not locked.is_current:
        raise ValidationError(
            _("A re-upload replaced this version of the tournament: withdraw the current one."), code="SUPERSEDED"
        )
    players = set(Award.objects.filter(tournament=locked).values_list("player_id", flat=True))
    count = awards_reverse_tournament(
        actor=actor, tournament=locked, reason=_("tournament withdrawn: %(reason)s") % {"reason": reason}
    )
    Tournament.objects.filter(pk=locked.pk).update(is_current=False)
    try:
        with transaction.atomic():
            withdrawal = TournamentWithdrawal.objects.create(
                tournament=locked, reason=reason, reversed_awards=count, withdrawn_by=actor
            )
    except IntegrityError:
        raise ValidationError(_("This tournament was withdrawn already."), code="WITHDRAWN") from None
    audit_record(
        actor=actor,
        action="tournament.withdraw",
        target=locked,
        payload={"reason": reason, "reversed": count, "players": len(players)},
    )
    if players:
        standings_refresh_players(federation=locked.federation, player_ids=players)
    return withdrawal
