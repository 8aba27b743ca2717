"""The office's record of a player and the withdrawal of a tournament, as pages of the admin.

Mixed into the standings' admin (``masterpoints.standings.admin.StandingAdmin``), so the pages live at
``admin/masterpoints/standing/player/<id>/`` and ``…/tournament/<id>/withdraw/`` behind the admin's login;
the player's admin page and list link here. Who may open them is decided per object here (the federation's
secretariat and commission see a record; only the secretariat files a correction or withdraws), whatever the
standings' own permissions say.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _

from federation.models import Player
from masterpoints.corrections.forms import CorrectionRequestForm
from masterpoints.corrections.services import correction_request_file, is_commission
from masterpoints.corrections.views import DOCUMENT_REFUSALS
from masterpoints.models import Award
from masterpoints.office_record import selectors
from masterpoints.office_record.forms import LedgerFilterForm, WithdrawForm, award_label, tournament_label
from masterpoints.office_record.services import tournament_withdraw
from office.access import is_secretariat
from tournaments.models import Tournament


def _player_for(request, pk: int, *, write: bool) -> Player:
    """The one access check of the record: the player's federation's secretariat (and, to read, its
    commission); anyone else is refused as if the player did not exist for them."""
    player = get_object_or_404(Player.objects.select_related("federation"), pk=pk)
    allowed = is_secretariat(request.user, player.federation)
    if not write:
        allowed = allowed or is_commission(request.user, player.federation)
    if not allowed:
        raise PermissionDenied(_("This player is of a federation you do not serve as its secretariat."))
    return player


class PlayerRecordMixin:
    """The record's pages, added to a ``FederationScopedAdmin`` of the masterpoints app."""

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(function)

        record, correction = view(self.player_record_view), view(self.player_correction_view)
        withdraw = view(self.tournament_withdraw_view)
        return [
            path("player/<int:pk>/", record, name="masterpoints_player_record"),
            path("player/<int:pk>/correction/", correction, name="masterpoints_player_correction"),
            path("tournament/<int:pk>/withdraw/", withdraw, name="masterpoints_tournament_withdraw"),
            *super().get_urls(),
        ]

    def _context(self, request, title: str, **values) -> dict:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **values}

    def player_record_view(self, request, pk: int):
        """Balances, title and what the next needs, the ledger (paged, by season and kind), held provisional
        points, corrections, and the links to the public page, a new correction and the player's register row."""
        player = _player_for(request, pk, write=False)
        info = player.federation.scheme_info
        filters = LedgerFilterForm(
            request.GET or None, seasons=selectors.player_seasons_with_awards(player), kinds=info.kinds
        )
        season, kind = filters.chosen()
        context = self._context(
            request,
            _("Points record of %(player)s") % {"player": player},
            player=player,
            record=selectors.player_record(player),
            filters=filters,
            ledger=selectors.ledger_page(player, season=season, kind=kind, number=request.GET.get("page")),
            query=request.GET.copy(),
            provisional=selectors.held_provisional(player),
            corrections=selectors.player_corrections(player),
            may_write=is_secretariat(request.user, player.federation),
        )
        context["query"].pop("page", None)
        return TemplateResponse(request, "admin/masterpoints/player_record.html", context)

    def player_correction_view(self, request, pk: int):
        """A correction request filed by the office for the player: the award chosen from the player's own
        ledger (any season), or one of their tournaments, listed by date and club."""
        player = _player_for(request, pk, write=True)
        awards = Award.objects.filter(player=player, reverses__isnull=True).select_related("tournament__club")
        form = CorrectionRequestForm(
            request.POST or None,
            request.FILES or None,
            awards=awards.order_by("-awarded_on", "-pk"),
            tournaments=selectors.player_tournaments(player),
            for_others=False,
            document_rule=player.federation.scheme_info.correction_document_rule,
            initial={"award": request.GET.get("award"), "tournament": request.GET.get("tournament")},
        )
        form.fields["award"].label_from_instance = award_label
        form.fields["tournament"].label_from_instance = tournament_label
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                correction = correction_request_file(
                    actor=request.user,
                    player=player,
                    text=data["text"],
                    tournament=data.get("tournament"),
                    award=data.get("award"),
                    document=data.get("document"),
                )
            except ValidationError as error:
                form.add_error("document" if error.code in DOCUMENT_REFUSALS else None, error)
            else:
                messages.success(request, _("The correction request #%(pk)s is filed.") % {"pk": correction.pk})
                return redirect("admin:masterpoints_correctionrequest_change", correction.pk)
        title = _("Ask for a correction for %(player)s") % {"player": player}
        context = self._context(request, title, player=player, form=form)
        return TemplateResponse(request, "admin/masterpoints/player_correction.html", context)

    def tournament_withdraw_view(self, request, pk: int):
        """GET: what withdrawing the tournament would reverse. POST: the withdrawal, with its reason."""
        tournament = get_object_or_404(Tournament.objects.select_related("federation", "club", "region"), pk=pk)
        if not is_secretariat(request.user, tournament.federation):
            raise PermissionDenied(_("Only the secretariat of the tournament's federation withdraws a tournament."))
        form = WithdrawForm(request.POST or None)
        back = request.GET.get("player", "")
        if request.method == "POST" and form.is_valid():
            try:
                withdrawal = tournament_withdraw(
                    actor=request.user, tournament=tournament, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request,
                    _("%(tournament)s is withdrawn: %(count)d awards reversed.")
                    % {"tournament": tournament, "count": withdrawal.reversed_awards},
                )
                if back.isdecimal():
                    return redirect(reverse("admin:masterpoints_player_record", args=[int(back)]))
                return redirect(tournament.get_absolute_url())
        awards = Award.objects.filter(tournament=tournament, source=Award.Source.RESULT, reversed_by__isnull=True)
        context = self._context(
            request,
            _("Withdraw %(tournament)s") % {"tournament": tournament_label(tournament)},
            tournament=tournament,
            form=form,
            open_awards=awards.count(),
            players=awards.values("player").distinct().count(),
            withdrawal=selectors.withdrawal_of(tournament),
        )
        return TemplateResponse(request, "admin/masterpoints/tournament_withdraw.html", context)
