"""A player's own login: asked for with the registration number and the register's address, or
sent by the secretariat; either way a signed, expiring link goes to the address on the register
(``Player.email``), and following it creates the login and links it to the player (``Player.user``).

The link is a :mod:`django.core.signing` token of the player's id and register address, valid for
:data:`LINK_MAX_AGE`. It works once: after it made a login the player has one, and a player with a login is
never given another (the token is also void once the register's address changes).

Nothing the site answers says whether a number and an address matched: a request writes its mails to the
outbox, and the page shown is the same either way. A player who already has a login is told, by mail to
that address, to reset the password instead.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from federation.mail import notify, player_language
from federation.models import AuditEvent, Player
from federation.refusals import refusals
from federation.services import audit_record

#: How long a link stays valid (our choice: long enough for a mail read a few days late).
LINK_MAX_AGE = datetime.timedelta(days=3)
_SALT = "office.accounts.player_login"

REFUSALS = {
    "LINK_INVALID": _("This link is not valid: it was changed, or the register's e-mail address has changed since."),
    "LINK_EXPIRED": _("This link has expired: links are valid for %(days)s days. Ask for a new one."),
    "LINK_USED": _("This link was already used: the player has a login. Log in, or reset your password."),
    "NO_PLAYER_ADDRESS": _("%(player)s has no e-mail address in the register: add one and invite again."),
    "HAS_LOGIN": _("%(player)s already has a login; they can reset its password from the login page."),
    "USERNAME_TAKEN": _("The username %(username)s is taken; choose another."),
}

refusal = refusals(REFUSALS)


def _logins_made(player: Player) -> int:
    """How many logins a link has made for ``player`` (their audit rows, which are append-only): a link
    carries the count of its day, so once used it stays used, also after the login is unlinked."""
    return AuditEvent.objects.filter(
        action="player_login.created", target_type=Player._meta.label_lower, target_id=str(player.pk)
    ).count()


def player_login_token(player: Player) -> str:
    """The signed link token of ``player``: its id, the register's address and the logins made so far,
    stamped with the time."""
    return signing.dumps({"p": player.pk, "e": player.email.strip().lower(), "n": _logins_made(player)}, salt=_SALT)


def player_for_token(token: str, *, max_age: datetime.timedelta = LINK_MAX_AGE) -> Player:
    """The player a link names, refused when the token is forged, expired, for another address, or used."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=max_age)
    except signing.SignatureExpired:
        raise refusal("LINK_EXPIRED", days=max_age.days) from None
    except signing.BadSignature:
        raise refusal("LINK_INVALID") from None
    player = Player.objects.filter(pk=data.get("p")).select_related("federation").first() if data else None
    if player is None or not player.email or player.email.strip().lower() != data.get("e"):
        raise refusal("LINK_INVALID")
    if player.user_id is not None or data.get("n") != _logins_made(player):
        raise refusal("LINK_USED")
    return player


def _mail_link(player: Player, *, site: str) -> None:
    """The link mail (or, for a player with a login, the reminder to reset the password) to the register's
    address, through the outbox."""
    context = {"player": player, "federation": player.federation}
    if player.user_id is not None:
        context["reset_url"] = site + reverse("password_reset")
        template = "player_login_exists"
    else:
        context["link"] = site + reverse("accounts:player_login_set", args=[player_login_token(player)])
        context["days"] = LINK_MAX_AGE.days
        template = "player_login_link"
    notify(template=template, to=[player.email], language=player_language(player), context=context)


@transaction.atomic
def player_login_request(*, number: str, email: str, site: str) -> None:
    """A player asks for a login: every player with this number and this register address gets the link by
    mail (numbers are unique per federation; one address may be on two federations' registers). Returns
    nothing, so that no caller can tell a match from a mismatch."""
    number, email = number.strip(), email.strip()
    if not number or not email:
        return
    players = Player.objects.filter(number=number, email__iexact=email).select_related("federation")
    for player in players:
        _mail_link(player, site=site)


@transaction.atomic
def player_login_invite(*, actor, player: Player, site: str) -> None:
    """The secretariat sends ``player`` the link (the admin's action on players), with an audit row."""
    if player.user_id is not None:
        raise refusal("HAS_LOGIN", player=str(player))
    if not player.email:
        raise refusal("NO_PLAYER_ADDRESS", player=str(player))
    _mail_link(player, site=site)
    audit_record(actor=actor, action="player_login.invited", target=player, payload={"email": player.email})


@transaction.atomic
def player_login_create(*, token: str, username: str, password: str):
    """Follow a link: a new login with ``username`` and ``password`` (already validated by the form), linked
    to the player, with an audit row. The player row is locked, so two uses of one link make one login."""
    player = Player.objects.select_for_update().get(pk=player_for_token(token).pk)
    if player.user_id is not None:
        raise refusal("LINK_USED")
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username,
                email=player.email,
                password=password,
                first_name=player.first_name[:150],
                last_name=player.last_name[:150],
            )
    except IntegrityError:
        raise refusal("USERNAME_TAKEN", username=username) from None
    player.user = user
    player.save(update_fields=["user"])
    audit_record(actor=user, action="player_login.created", target=player, payload={"username": username})
    return user
