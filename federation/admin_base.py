"""Base classes of the project's admin pages: every one keeps federations apart, and some never edit.

:class:`FederationScopedAdmin` is the base of every ``ModelAdmin`` of the project (design.md: every admin page,
form choice and action is scoped to the federations its user serves). Each admin names, in
``federation_paths``, how its rows reach their federation; the mixin then limits the list, the objects
one may open, the choices of every form field and the rows an action sees, and refuses a save into a
federation its user does not serve with a message on the form.

Which federations a user serves, and in which role, is decided in ``office.access`` (above this app in the
stack); ``office.admin`` installs that answer with :func:`install_scope`. Until it is installed the admin
fails closed: only superusers see anything.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.utils import NotRelationField, get_fields_from_path, unquote
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from federation.decisions import DECISION_FIELDS
from federation.models import AuditEvent, Federation
from federation.schemes import codes_with
from federation.services import audit_record

#: ``scope(user, action, model_name)``: the ids of the federations in which ``user`` may ``action`` rows of
#: the model, or ``None`` for every federation.
Scope = Callable[[object, str, str], "frozenset[int] | None"]


def _superusers_only(user, action: str, model_name: str) -> frozenset[int] | None:
    return None if user.is_active and user.is_superuser else frozenset()


_scope: Scope = _superusers_only


def install_scope(scope: Scope) -> None:
    """Let ``scope`` answer which federations a user reaches in the admin (``office.admin`` does this)."""
    global _scope
    _scope = scope


def scope_installed() -> Scope:
    return _scope


def federation_paths(model, site: admin.AdminSite = admin.site) -> tuple[str, ...]:
    """How rows of ``model`` reach their federation: the registered admin's ``federation_paths``, the row
    itself for a federation, its ``federation`` key otherwise; ``()`` when it has none (a user)."""
    if model is Federation:
        return ("pk",)
    if site.is_registered(model):
        model_admin = site.get_model_admin(model)
        if isinstance(model_admin, FederationScopedAdmin):
            return model_admin.federation_paths
    try:
        field = model._meta.get_field("federation")
    except FieldDoesNotExist:
        return ()
    return ("federation",) if field.is_relation and field.related_model is Federation else ()


def federation_of(obj, path: str) -> int | None:
    """The id of the federation ``obj`` reaches along ``path`` (``club__federation``), ``None`` if unset."""
    if path == "pk":
        return obj.pk
    *hops, last = path.split("__")
    for hop in hops:
        obj = getattr(obj, hop, None)  # an unset required key raises RelatedObjectDoesNotExist, an AttributeError
        if obj is None:
            return None
    return getattr(obj, obj._meta.get_field(last).attname)


def scope_filter(queryset: models.QuerySet, paths: Iterable[str], ids: Iterable[int]) -> models.QuerySet:
    """The rows of ``queryset`` whose every path leads to one of the federations ``ids``."""
    ids = list(ids)
    for path in paths:
        queryset = queryset.filter(**{f"{path}__in": ids})
    return queryset


class FederationScopedAdmin(admin.ModelAdmin):
    """An admin page that shows and writes only rows of the federations its user serves (superusers: all).

    The Django permissions (the user's groups) still decide *what* a user may do; the scope decides *where*:
    viewing in the federations served as secretariat or commission, writing as their secretariat only.
    """

    #: How a row reaches its federation; a row is in scope when every path leads to a federation served.
    #: Name paths the add form fills in (``player__federation`` where a service sets ``federation``).
    federation_paths: tuple[str, ...] = ("federation",)
    #: The rule book's workflow these rows belong to (a boolean of :class:`federation.schemes.SchemeInfo`, such
    #: as ``sanctions``): a member of staff reaches them only in federations whose rule book has it, so an HBS
    #: office does not see DBf's sanctions or cup series in its admin index. Empty: every scheme.
    workflow: str = ""

    # --- the scope -----------------------------------------------------------------------------------------

    def scope(self, request, action: str) -> frozenset[int] | None:
        """The federations in which the request's user may ``action`` rows here (``None``: every one)."""
        cache = request.__dict__.setdefault("_federation_scope", {})
        key = (self.opts.model_name, action)
        if key not in cache:
            ids = _scope(request.user, action, self.opts.model_name)
            if ids is not None and self.workflow:
                with_it = Federation.objects.filter(scheme__in=codes_with(self.workflow), pk__in=ids)
                ids = frozenset(with_it.values_list("pk", flat=True))
            cache[key] = ids
        return cache[key]

    def write_scope(self, request) -> frozenset[int] | None:
        """The federations the user may add or change rows in: what the form's choices are limited to."""
        add, change = self.scope(request, "add"), self.scope(request, "change")
        return None if add is None or change is None else add | change

    def federations_of(self, obj) -> set[int | None]:
        """The federations ``obj`` belongs to (one, unless it links rows of two)."""
        return {federation_of(obj, path) for path in self.federation_paths}

    def in_scope(self, request, obj, action: str) -> bool:
        """May the user ``action`` the row ``obj``? Every federation it belongs to must be reached."""
        ids = self.scope(request, action)
        if ids is None:
            return True
        found = self.federations_of(obj)
        return bool(found) and found <= ids

    def _reaches(self, request, obj, action: str) -> bool:
        if obj is None:
            ids = self.scope(request, action)
            return ids is None or bool(ids)
        return self.in_scope(request, obj, action)

    def scope_queryset(self, request, queryset: models.QuerySet, ids: frozenset[int]) -> models.QuerySet:
        """The rows of ``queryset`` in the federations ``ids``."""
        return scope_filter(queryset, self.federation_paths, ids)

    # --- what the user sees and may do ----------------------------------------------------------------------

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        ids = self.scope(request, "view")
        return queryset if ids is None else self.scope_queryset(request, queryset, ids)

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self._reaches(request, obj, "view")

    def has_add_permission(self, request):
        return super().has_add_permission(request) and self._reaches(request, None, "add")

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._reaches(request, obj, "change")

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._reaches(request, obj, "delete")

    def get_actions(self, request):
        """Each action receives only the selected rows of the federations the user may act on with the
        action's permission (``approve`` with ``add``: the secretariat's own federation)."""
        actions = super().get_actions(request)
        return {name: (self._scoped_action(func), name, text) for name, (func, name, text) in actions.items()}

    def _scoped_action(self, func):
        permissions = getattr(func, "allowed_permissions", ()) or ("view",)

        @functools.wraps(func)
        def scoped(modeladmin, request, queryset):
            for permission in permissions:
                ids = self.scope(request, permission)
                if ids is not None:
                    queryset = self.scope_queryset(request, queryset, ids)
            return func(modeladmin, request, queryset)

        return scoped

    def get_list_filter(self, request):
        """A filter by a related row offers only the rows the scoped list holds (not every federation's)."""
        filters = super().get_list_filter(request)
        if self.scope(request, "view") is None:
            return filters
        return [self._related_only(entry) for entry in filters]

    def _related_only(self, entry):
        if not isinstance(entry, str):
            return entry
        try:
            field = get_fields_from_path(self.model, entry)[-1]
        except (FieldDoesNotExist, NotRelationField):
            return entry
        return (entry, admin.RelatedOnlyFieldListFilter) if field.is_relation else entry

    # --- the search behind a form's autocomplete ---------------------------------------------------------------

    def get_search_results(self, request, queryset, search_term):
        """The list's search; for the autocomplete of another admin's form field (a player chosen by number or
        name), among the rows that field may choose only (:meth:`autocomplete_scope`)."""
        return super().get_search_results(request, self.autocomplete_scope(request, queryset), search_term)

    def autocomplete_scope(self, request, queryset: models.QuerySet) -> models.QuerySet:
        """For the autocomplete of another admin's form field, the rows of the federations the form's user
        writes in (D-Q46: the DBf secretariat never finds an HBS player, even where it may view
        one); ``queryset`` itself for any other request."""
        source = self._autocomplete_source(request)
        ids = source.write_scope(request) if source is not None else None
        return queryset if ids is None else scope_filter(queryset, self.federation_paths, ids)

    def _autocomplete_source(self, request) -> FederationScopedAdmin | None:
        """The admin whose form asks this admin's autocomplete, or ``None`` for any other request."""
        match = getattr(request, "resolver_match", None)
        if match is None or match.url_name != "autocomplete":
            return None
        try:
            model = apps.get_model(request.GET.get("app_label", ""), request.GET.get("model_name", ""))
        except (LookupError, ValueError):
            return None
        source = self.admin_site._registry.get(model)
        return source if isinstance(source, FederationScopedAdmin) else None

    # --- form choices and saves -----------------------------------------------------------------------------

    def _scoped_choices(self, db_field, request, queryset):
        """The rows a form field may choose: those of the federations the user writes in."""
        model = db_field.remote_field.model
        paths = federation_paths(model, self.admin_site)
        ids = self.write_scope(request)
        if not paths or ids is None:
            return queryset
        if queryset is None:
            queryset = self.get_field_queryset(None, db_field, request) or model._default_manager.all()
        return scope_filter(queryset, paths, ids)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        queryset = self._scoped_choices(db_field, request, kwargs.get("queryset"))
        if queryset is not None:
            kwargs["queryset"] = queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        queryset = self._scoped_choices(db_field, request, kwargs.get("queryset"))
        if queryset is not None:
            kwargs["queryset"] = queryset
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The form refuses, with a message, a row saved into a federation the user does not serve, or one
        that links rows of another federation."""
        form = super().get_form(request, obj, change=change, **kwargs)
        model_admin, action = self, "change" if obj is not None else "add"

        class ScopedForm(form):
            def _post_clean(self):
                super()._post_clean()  # the instance now holds the form's values
                model_admin.check_scope(request, self, action)

        ScopedForm.__name__ = ScopedForm.__qualname__ = form.__name__
        return ScopedForm

    def check_scope(self, request, form: forms.ModelForm, action: str) -> None:
        """Add the errors of a row outside the user's federations, or of a link to another federation."""
        found = self.federations_of(form.instance) - {None}
        if len(found) > 1:
            form.add_error(None, _("This row links records of different federations."))
            return
        ids = self.scope(request, action)
        if found and ids is not None and not found <= ids:
            name = Federation.objects.filter(pk__in=found).values_list("name", flat=True).first()
            form.add_error(self._federation_field(form), _("You do not serve %(federation)s.") % {"federation": name})
            return
        for name, field in form.fields.items():
            if isinstance(field, forms.ModelChoiceField) and name in form.cleaned_data:
                self._check_link(form, name, form.cleaned_data[name], found)

    def _federation_field(self, form) -> str | None:
        first = self.federation_paths[0].split("__")[0] if self.federation_paths else None
        return first if first in form.fields else None

    def _check_link(self, form, name: str, value, row_federations: set[int]) -> None:
        values = value if isinstance(value, Iterable) else [value] if value is not None else []
        for linked in values:
            if not isinstance(linked, models.Model):
                continue
            paths = federation_paths(type(linked), self.admin_site)
            linked_ids = {federation_of(linked, path) for path in paths} - {None}
            if row_federations and linked_ids and not linked_ids <= row_federations:
                form.add_error(name, _("%(row)s belongs to another federation than this row.") % {"row": linked})
                return

    def save_form(self, request, form, change):
        """A last guard before any ``save_model``: the form has refused what is outside the scope."""
        obj = super().save_form(request, form, change)
        if not self.in_scope(request, obj, "change" if change else "add"):
            raise PermissionDenied
        return obj


class ReadOnlyAdmin(FederationScopedAdmin):
    """Derived, logged or append-only rows (the audit log, standings, the title register, title e-mails,
    cup wins): shown and filtered, never added, edited or deleted here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class DecidedByActionsAdmin(FederationScopedAdmin):
    """Rows filed on the site and decided by the office through the list's actions (sanction applications,
    sanctions, correction requests) or a page of the admin's own (the office's queue): never added or
    deleted here, and every field of a row is read-only."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        # The list's actions (and such a page) need the change permission; a row itself is only ever viewed.
        return obj is None and super().has_change_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        """Every field, the row's own first and the decision's (who, when, why) last."""
        names = [field.name for field in self.model._meta.fields]
        return sorted(names, key=lambda name: name in DECISION_FIELDS)


# --- the audit of admin changes ---------------------------------------------------------------------------


def audit_values(obj: models.Model) -> dict[str, Any]:
    """The editable fields of ``obj`` as JSON values, as a reader compares them: a related row by its text,
    many-to-many rows as the sorted texts, dates and decimals as text (the audit's before and after values)."""
    values: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if not field.editable or field.primary_key:
            continue
        if field.is_relation:
            related = getattr(obj, field.name) if getattr(obj, field.attname) is not None else None
            values[field.name] = None if related is None else str(related)
        else:
            values[field.name] = json.loads(json.dumps(field.value_from_object(obj), cls=DjangoJSONEncoder))
    for field in obj._meta.many_to_many:
        values[field.name] = sorted(str(row) for row in getattr(obj, field.name).all()) if obj.pk else []
    return values


def _differences(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: {"before": before.get(name), "after": after.get(name)}
        for name in {*before, *after}
        if before.get(name) != after.get(name)
    }


def _inline_changes(formsets) -> list[dict[str, Any]]:
    """What the inline forms added, changed and deleted (the inline rows' fields before and after)."""
    changes = []
    for formset in formsets:
        for form in formset.forms:
            if formset.can_delete and formset._should_delete_form(form) and form.instance.pk is None:
                before = {name: str(value) for name, value in form.initial.items() if name != "id"}
                changes.append({"model": formset.model._meta.model_name, "action": "delete", "fields": before})
            elif form.has_changed() and form.instance.pk is not None:
                before = {name: form.initial.get(name) for name in form.changed_data}
                after = {name: audit_values(form.instance).get(name) for name in form.changed_data}
                fields = _differences(json.loads(json.dumps(before, cls=DjangoJSONEncoder)), after)
                action = "add" if not form.initial else "change"
                changes.append({"model": formset.model._meta.model_name, "action": action, "fields": fields})
    return changes


class AuditedAdmin:
    """A mixin for an admin (before :class:`FederationScopedAdmin` in the bases): every add, change and delete
    made on its pages is audited (``admin.<model>.add|change|delete``, the actor, and each changed field
    before and after; inline rows too) in the same transaction as the change, since the admin's add,
    change and delete views run in one transaction. The change page shows the row's audit events; Django's
    own "History" button opens the audit log filtered to the row instead of the ``LogEntry`` list, so that
    there is one history: the append-only one, which also holds what services changed (a register import,
    a correction), with values, where ``LogEntry`` names only the fields and may be deleted."""

    #: Events shown on the change page (the link beside them opens all of them).
    audit_history_limit = 20
    change_form_template = "admin/audited_change_form.html"

    def _audit_action(self, verb: str) -> str:
        return f"admin.{self.opts.model_name}.{verb}"

    def save_model(self, request, obj, form, change):
        if change and obj.pk is not None:
            stored = type(obj)._default_manager.filter(pk=obj.pk).first()
            form._audit_before = audit_values(stored) if stored is not None else {}
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        fields = _differences(getattr(form, "_audit_before", {}) if change else {}, audit_values(form.instance))
        inlines = _inline_changes(formsets)
        if change and not fields and not inlines:
            return
        payload = {"fields": fields, **({"inlines": inlines} if inlines else {})}
        verb = "change" if change else "add"
        audit_record(actor=request.user, action=self._audit_action(verb), target=form.instance, payload=payload)

    def audit_delete(self, request, obj) -> None:
        """Audit the deletion of ``obj`` with its fields' last values (call it before deleting)."""
        fields = _differences(audit_values(obj), {})
        audit_record(actor=request.user, action=self._audit_action("delete"), target=obj, payload={"fields": fields})

    def delete_model(self, request, obj):
        with transaction.atomic():
            self.audit_delete(request, obj)
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset:
                self.audit_delete(request, obj)
            super().delete_queryset(request, queryset)

    def audit_history_url(self, object_id) -> str:
        changelist = reverse(f"{self.admin_site.name}:federation_auditevent_changelist")
        return f"{changelist}?{urlencode({'target_type': self.opts.label_lower, 'target_id': str(object_id)})}"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        events = AuditEvent.objects.filter(target_type=self.opts.label_lower, target_id=str(object_id))
        extra = {
            "audit_history": events.select_related("actor")[: self.audit_history_limit],
            "audit_history_url": self.audit_history_url(object_id),
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def history_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        return redirect(self.audit_history_url(obj.pk))
