"""The site's table template's header and pages (``masterpoints/table.html``), built in Python by
:func:`federation.tables.table_head` and :func:`federation.tables.table_pages`."""

from __future__ import annotations

from django import template

from federation import tables

register = template.Library()


@register.simple_tag(takes_context=True)
def table_head(context, table):
    return tables.table_head(table, context["request"])


@register.simple_tag(takes_context=True)
def table_pages(context, table):
    return tables.table_pages(table, context["request"])
