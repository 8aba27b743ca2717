"""Every registered admin model × every page and action × every persona, against one rule table.

For each model of ``admin.site._registry`` the test makes one row per federation (``tests.office.admin_rows``;
models of one federation's rules get only that federation's row, auth's models one row of none), then asks,
as each persona: the list (and which rows it holds), the add form, the change and delete pages of each row
(a refused delete is also posted, and the row must survive), and each action on each row (which rows the
action receives). The answer expected comes from :data:`RULES` (what each persona reaches) and
:data:`OFFERS` (what each admin page offers at all), combined in :func:`expected` and nowhere else.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from unittest import mock

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from federation.admin_base import FederationScopedAdmin, scope_installed
from office.access import COMMISSION_GROUP, SECRETARIAT_APPS, SECRETARIAT_GROUP, admin_scope
from tests.office import admin_rows

# --- the table ------------------------------------------------------------------------------------------

ALL = frozenset({"dbf", "hbs", None})  # None: the row of a model of no federation (another app's)


@dataclass(frozen=True)
class Rule:
    """What a persona reaches in the admin."""

    admin: bool = False  #: may enter the admin at all (else: sent to log in)
    sees: frozenset = frozenset()  #: the federations whose rows it views
    writes: frozenset = frozenset()  #: the federations whose rows it adds, changes, deletes
    #: the only (model, operation) it writes, where it is limited to some; ``None``: whatever the page offers
    only: frozenset | None = None
    every_app: bool = False  #: also Django's and other apps' models (users, login attempts, OTP devices)


RULES: dict[str, Rule] = {
    "anonymous": Rule(),
    "player": Rule(),  # not staff: the admin sends them to log in
    "club_director": Rule(),
    "district_officer": Rule(),
    "commission": Rule(
        admin=True,
        sees=frozenset({"dbf"}),
        writes=frozenset({"dbf"}),
        only=frozenset({("masterpoints.correctionrequest", "change")}),
    ),
    "dbf_secretariat": Rule(admin=True, sees=frozenset({"dbf"}), writes=frozenset({"dbf"})),
    "hbs_secretariat": Rule(admin=True, sees=frozenset({"hbs"}), writes=frozenset({"hbs"})),
    "superuser": Rule(admin=True, sees=ALL, writes=ALL, every_app=True),
}

A, C, D = "add", "change", "delete"


@dataclass(frozen=True)
class Offers:
    """What an admin page offers at all (to a superuser): ``row`` operations on a row, and its actions with
    the permission each needs (``delete_selected`` wherever deleting is offered)."""

    row: frozenset = frozenset()
    actions: dict = field(default_factory=dict)
    list_change: bool = False  #: the change permission on the list only: its actions decide, rows are read-only
    other_app: bool = False  #: a model of Django or another app: no staff role has a permission on it
    #: A rule book's workflow (``FederationScopedAdmin.workflow``): its pages answer 403 to staff who serve no
    #: federation of that scheme (the world's federations are keyed by their scheme).
    scheme: str = ""


EDIT = frozenset({A, C, D})
OFFERS: dict[str, Offers] = {
    "auth.group": Offers(EDIT, other_app=True),
    "auth.user": Offers(EDIT, other_app=True),
    "axes.accessattempt": Offers(frozenset({C, D}), {"cleanup_expired_attempts": "view"}, other_app=True),
    "axes.accesslog": Offers(frozenset({C, D}), other_app=True),
    "axes.accessfailurelog": Offers(frozenset({C, D}), other_app=True),
    "otp_totp.totpdevice": Offers(EDIT, other_app=True),
    "otp_static.staticdevice": Offers(EDIT, other_app=True),
    "federation.federation": Offers(EDIT),
    "federation.region": Offers(EDIT),
    "federation.player": Offers(EDIT, {"invite_to_log_in": C}),  # issue 19: the login link by mail
    "federation.ruleset": Offers(EDIT),
    "federation.auditevent": Offers(),  # append-only
    "federation.jobrun": Offers(),  # written by the jobs themselves (issue 19)
    "clubs.club": Offers(EDIT),
    "clubs.clubmembership": Offers(EDIT),
    "office.officer": Offers(
        frozenset({A, D}), {"reset_second_factor": C}, list_change=True
    ),  # issue 33: a lost factor
    "tournaments.recognisedtournament": Offers(EDIT, scheme="hbs"),
    "tournaments.touristapproval": Offers(
        frozenset({A, D}), {"approve": A, "refuse": A}, list_change=True, scheme="hbs"
    ),
    "tournaments.directorlicence": Offers(frozenset({A, D}), {"revoke": A}, list_change=True, scheme="hbs"),
    "tournaments.sanctionapplication": Offers(actions={"approve": C, "refuse": C}, list_change=True, scheme="dbf"),
    "tournaments.sanction": Offers(list_change=True, scheme="dbf"),
    "tournaments.simultaneousevent": Offers(EDIT, scheme="dbf"),
    "masterpoints.correctionrequest": Offers(actions={"assign_to_me": C, "refuse": C}, list_change=True),
    "masterpoints.correctionwindow": Offers(frozenset({A, C})),  # closed by its last day, never deleted
    "masterpoints.cupseries": Offers(EDIT, scheme="dbf"),  # one without recorded wins (a series with wins is kept)
    "masterpoints.cupwin": Offers(scheme="dbf"),
    "masterpoints.foreignconversion": Offers(EDIT, scheme="dbf"),
    "masterpoints.foreignpoints": Offers(frozenset({A}), {"approve": A, "refuse": A}, list_change=True, scheme="dbf"),
    "masterpoints.officecase": Offers(list_change=True),  # resolved on its own page (issue 19)
    "masterpoints.provisionalplayer": Offers(list_change=True),  # credited on its own page (issue 35)
    "masterpoints.clubalias": Offers(frozenset({D})),  # recorded from an upload, removed here, never edited (D-Q40)
    "masterpoints.standing": Offers(),
    "masterpoints.titleachievement": Offers(),
    "masterpoints.titlemailing": Offers(),
}
#: Operations only a superuser has even where the secretariat writes the model: a federation's set-up.
SUPERUSER_ONLY = {("federation.federation", A), ("federation.federation", D)}

LOGIN, DENIED, HIDDEN, OK, VIEW, NOT_OFFERED = "login", "403", "not found", "ok", "view only", "not offered"


def _writes(rule: Rule, label: str, operation: str) -> bool:
    """May the persona ``operation`` rows of ``label`` in some federation (the page-level permission)?
    ``view`` stands for an action that asks no permission: whoever sees the list may run it."""
    offers = OFFERS[label]
    if offers.other_app and not rule.every_app:
        return False
    if operation == "view":
        return bool(rule.sees)
    offered = operation in offers.row or (operation == C and offers.list_change)
    if not offered or ((label, operation) in SUPERUSER_ONLY and not rule.every_app):
        return False
    return bool(rule.writes) and (rule.only is None or (label, operation) in rule.only)


def expected(persona: str, label: str, page: str, row: str | None = None) -> str:
    """The answer the table gives ``persona`` on ``page`` (changelist, add, change, delete, or an action's
    name) of ``label``, for the row of federation ``row``."""
    rule, offers = RULES[persona], OFFERS[label]
    if not rule.admin:
        return LOGIN
    if offers.other_app and not rule.every_app:
        return DENIED
    if offers.scheme and offers.scheme not in rule.sees:
        return DENIED
    if page == "changelist":
        return OK
    if page == A:
        return OK if _writes(rule, label, A) else DENIED
    if page == C:
        if row not in rule.sees:
            return HIDDEN
        writes = C in offers.row and _writes(rule, label, C) and row in rule.writes
        return OK if writes else VIEW
    if page == D:
        if not _writes(rule, label, D):
            return DENIED
        if row not in rule.sees:
            return HIDDEN
        return OK if row in rule.writes else DENIED
    permission = D if page == "delete_selected" else offers.actions[page]
    if not _writes(rule, label, permission):
        return NOT_OFFERED
    return OK if row in (rule.sees if permission == "view" else rule.writes) else HIDDEN


def actions_of(label: str) -> dict[str, str]:
    offers = OFFERS[label]
    return {**offers.actions, **({"delete_selected": D} if D in offers.row else {})}


# --- the probes -----------------------------------------------------------------------------------------


def _outcome(response) -> str:
    if response.status_code == 302:
        if response.url.startswith(reverse("admin:login")):
            return LOGIN
        if response.url == reverse("admin:index"):
            return HIDDEN
        return f"302 to {response.url}"
    if response.status_code == 403:
        return DENIED
    if response.status_code == 404:
        return HIDDEN
    if response.status_code == 200:
        return OK
    return str(response.status_code)


def _change_outcome(response) -> str:
    found = _outcome(response)
    if found == OK and not response.context["has_change_permission"]:
        return VIEW
    return found


def _recording(func, calls: list):
    """Stand in for an action: note the rows it is given, do nothing with them."""

    @functools.wraps(func)
    def record(modeladmin, request, queryset):
        calls.append({obj.pk for obj in queryset})

    return record


def _action_outcome(client, model_admin, url: str, name: str, row) -> str:
    calls: list = []
    cls = type(model_admin)
    if name == "delete_selected":
        patch = mock.patch.dict(model_admin.admin_site._actions, {name: _recording(delete_selected, calls)})
    else:
        patch = mock.patch.object(cls, name, _recording(getattr(cls, name), calls))
    with patch:
        response = client.post(url, {"action": name, ACTION_CHECKBOX_NAME: [row.pk]})
    if calls:
        return OK if row.pk in calls[0] else HIDDEN
    found = _outcome(response)
    # Not given to the action: the list again (no action to offer) or back to it ("No action selected").
    return NOT_OFFERED if found == OK or found.startswith("302 to") else found


def _client(persona: str, users: dict) -> Client:
    client = Client()
    if users[persona] is not None:
        client.force_login(users[persona])
    return client


@pytest.fixture
def users(world, personas, django_user_model):
    return {
        "anonymous": None,
        "player": personas.player,
        "club_director": personas.director_a,
        "district_officer": personas.district_officer,
        "commission": personas.commission,
        "dbf_secretariat": personas.secretariat,
        "hbs_secretariat": admin_rows.hbs_secretariat(world),
        "superuser": django_user_model.objects.create_superuser("root", "root@example.com", "pw-root"),
    }


REGISTERED = sorted(model._meta.label_lower for model in admin.site._registry)


def _probe(label: str, persona: str, client: Client, rows: dict) -> list[tuple[str, str | None, str]]:
    """``(page, row, answer)`` of every page and action of ``label`` as ``persona``."""
    model = apps.get_model(label)
    model_admin = admin.site.get_model_admin(model)
    opts = model._meta
    name = f"admin:{opts.app_label}_{opts.model_name}"
    changelist = reverse(f"{name}_changelist")
    answers = []
    response = client.get(changelist)
    answers.append(("changelist", None, _outcome(response)))
    if response.status_code == 200:
        shown = {obj.pk for obj in response.context["cl"].result_list}
        rule = RULES[persona]
        listed = {key for key, row in rows.items() if row.pk in shown}
        want = {key for key in rows if key in rule.sees}
        answers.append(("listed", None, "ok" if listed == want else f"lists {sorted(map(str, listed))}"))
    answers.append((A, None, _outcome(client.get(reverse(f"{name}_add")))))
    for key, row in rows.items():
        answers.append((C, key, _change_outcome(client.get(reverse(f"{name}_change", args=[row.pk])))))
        delete_url = reverse(f"{name}_delete", args=[row.pk])
        answer = _outcome(client.get(delete_url))
        answers.append((D, key, answer))
        if answer in (DENIED, HIDDEN):
            client.post(delete_url, {"post": "yes"})
            answers.append(("survives", key, "ok" if model._default_manager.filter(pk=row.pk).exists() else "deleted"))
        for action in actions_of(label):
            answers.append((action, key, _action_outcome(client, model_admin, changelist, action, row)))
    return answers


def _want(persona: str, label: str, page: str, key) -> str:
    if page in ("listed", "survives"):
        return "ok"
    return expected(persona, label, page, key)


@pytest.mark.parametrize("label", REGISTERED)
def test_every_persona_gets_what_the_table_says_on_every_admin_page(label, world, personas, users):
    rows = admin_rows.rows_of(label, world)
    wrong = []
    for persona in RULES:
        client = _client(persona, users)
        for page, key, answer in _probe(label, persona, client, rows):
            want = _want(persona, label, page, key)
            if answer != want:
                wrong.append(f"{persona:>16} {page:>15} row {key!s:>4}: {answer}, the table says {want}")
    assert not wrong, f"{label}:\n" + "\n".join(wrong)


# --- the table covers everything -------------------------------------------------------------------------


def test_the_table_names_every_registered_admin_and_every_action():
    assert set(OFFERS) == set(REGISTERED)
    for label in REGISTERED:
        model_admin = admin.site.get_model_admin(apps.get_model(label))
        assert set(model_admin.actions or ()) == set(OFFERS[label].actions), label


def test_a_superuser_is_offered_exactly_the_actions_of_the_table(rf, admin_user):
    for label in REGISTERED:
        request = rf.get("/admin/")
        request.user = admin_user
        model_admin = admin.site.get_model_admin(apps.get_model(label))
        assert set(model_admin.get_actions(request)) == set(actions_of(label)), label


def test_every_admin_of_the_project_is_scoped_by_office_access():
    assert scope_installed() is admin_scope
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label in SECRETARIAT_APPS:  # the others are Django's and other apps' own
            assert isinstance(model_admin, FederationScopedAdmin), model._meta.label
            assert not OFFERS[model._meta.label_lower].other_app


def test_no_staff_role_has_a_permission_on_another_apps_model(db):
    for name in (SECRETARIAT_GROUP, COMMISSION_GROUP):
        group = Group.objects.get(name=name)
        assert set(group.permissions.values_list("content_type__app_label", flat=True)) <= set(SECRETARIAT_APPS)
    for label, offers in OFFERS.items():
        assert offers.other_app == (label.split(".")[0] not in SECRETARIAT_APPS), label


def test_every_model_has_a_row_per_federation_or_says_whose_rule_it_is(world):
    for label in REGISTERED:
        rows = admin_rows.rows_of(label, world)
        assert rows, f"{label}: no row to probe"
