"""The choices tournaments and sanctions share: form of play, organiser, point kind."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Form(models.TextChoices):
    """Tournament form (DBf §§ 405–444; HBS: individual, pairs, teams)."""

    PAIRS = "pairs", _("pairs")
    INDIVIDUAL = "individual", _("individual")
    MINIHOLD = "minihold", _("mini-teams (minihold)")
    TEAMS = "teams", _("teams")


class OrganiserKind(models.TextChoices):
    """Who runs the tournament; decides what it may award by default (DBf § 403)."""

    CLUB = "club", _("club")
    DISTRICT = "district", _("district")
    CIRCLE = "circle", _("circle (kreds)")
    FEDERATION = "federation", _("federation")
