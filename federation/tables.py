"""What every list page of the site shares: a bounded page size (D-Q55), a paginator told the length of
its list, a list read a page at a time, and a table's header and pages as HTML."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from urllib.parse import urlencode

import django_tables2 as tables
from django.core.paginator import Paginator
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django_tables2.templatetags.django_tables2 import table_page_range

#: The page sizes a list offers (D-Q55); anything else asked for shows :data:`DEFAULT_PAGE_SIZE` rows.
PAGE_SIZES = (25, 50, 100, 200)
DEFAULT_PAGE_SIZE = 50


def page_size(raw, default: int = DEFAULT_PAGE_SIZE) -> int:
    """D-Q55: the rows per page asked for (``?per_page=``) when it is one of :data:`PAGE_SIZES`, else
    ``default``: a size outside the offered ones is no error, the list simply shows its usual page."""
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return default
    return value if value in PAGE_SIZES else default


class BoundedPages:
    """A table whose page size is one of :data:`PAGE_SIZES` whatever the address asks for (django-tables2
    takes ``?per_page=`` from the request as it is)."""

    default_page_size = DEFAULT_PAGE_SIZE

    def paginate(self, paginator_class=Paginator, per_page=None, page=1, *args, **kwargs):
        size = page_size(per_page, self.default_page_size)
        return super().paginate(paginator_class, size, page, *args, **kwargs)


class CopiedColumn:
    """A column that each table copies without a deep copy: django-tables2 deep-copies every declared column
    for every table (0.5 ms of each rankings page not kept, issue 16). A column's settings are never changed
    in place (a table may replace a column's ``attrs``), so a copy with its own ``attrs`` is enough."""

    def __deepcopy__(self, memo):
        copied = copy.copy(self)
        copied.attrs = dict(self.attrs)
        return copied


class Column(CopiedColumn, tables.Column):
    pass


class DateColumn(CopiedColumn, tables.DateColumn):
    pass


class CountedPaginator(Paginator):
    """A paginator given the number of rows (``count``) by who already knows it, instead of counting them in
    the database: the rankings read it from the rank index (``masterpoints.public.ranks``), where counting a
    federation's 70,000 standings cost 10–16 ms of every page that is not kept."""

    def __init__(self, object_list, per_page, *args, count: int, **kwargs):
        super().__init__(object_list, per_page, *args, **kwargs)
        self.count = count  # where Paginator's cached ``count`` would keep what it counted


class SlicedRows(Sequence):
    """A list of rows read a slice at a time, as a paginator asks for its page: a subclass gives ``__len__``
    and :meth:`read`. A django-tables2 table takes it wrapped in ``TableListData``, which would otherwise
    copy it into a list (read every row)."""

    def read(self, part: slice) -> list:
        """The rows of ``part`` (non-negative bounds, or none)."""
        raise NotImplementedError

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self.read(key)
        index = key + len(self) if key < 0 else key
        rows = self.read(slice(index, index + 1)) if index >= 0 else []
        if not rows:
            raise IndexError(key)
        return rows[0]

    def __iter__(self):
        return iter(self.read(slice(None)))


# --- a table's header and pages, built in Python (the site's table template, ``masterpoints/table.html``) ------


def _addresses(request, name: str) -> Callable[[object], str]:
    """The page's own query with ``name`` set to a value (as django-tables2's ``querystring_replace``),
    escaped for an attribute: the rest of the query is encoded once for all of a table's links (a header of
    nine columns and a row of page links encoded the whole query for each, a tenth of the rankings' table)."""
    params = dict(request.GET.lists())
    params[name] = ()  # its place in the query, kept where the page's own query has it
    names = list(params)
    at = names.index(name)
    before = urlencode([(key, params[key]) for key in names[:at]], doseq=True)
    after = urlencode([(key, params[key]) for key in names[at + 1 :]], doseq=True)

    def address(value) -> str:
        parts = (before, urlencode([(name, value)]), after)
        return escape("?" + "&".join(part for part in parts if part))

    return address


def table_head(table, request) -> SafeString:
    """The ``<thead>``: each column's header, a sortable one as a link to the other order, the sorted one
    telling screen readers its direction (``aria-sort``); a header the table links itself (``header_link``:
    the rankings' points columns choose what ranks the list, issue 38). Built in Python: a template per
    header cost a fifth of the rankings' table (issue 16)."""
    if not table.show_header:
        return mark_safe("")
    cells = []
    ordered_by = _addresses(request, table.prefixed_order_by_field)
    header_link = getattr(table, "header_link", None)  # a header that chooses the ranking (rankings)
    sorted_otherwise = any(column.is_ordered for column in table.columns)
    for column in table.columns:
        header = conditional_escape(column.header)
        sort = ""
        chosen = header_link(column, request) if header_link is not None else None
        if chosen is not None:
            address, current = chosen
            header = f'<a href="{escape(address)}">{header}</a>'
            sort = ' aria-sort="descending"' if current and not sorted_otherwise else ""
        elif column.orderable:
            header = f'<a href="{ordered_by(column.order_by_alias.next)}">{header}</a>'
        if column.is_ordered:
            sort = f' aria-sort="{"descending" if column.order_by_alias.is_descending else "ascending"}"'
        cells.append(f'<th scope="col" {column.attrs["th"].as_html()}{sort}>{header}</th>')
    return mark_safe(f"<thead><tr>{''.join(cells)}</tr></thead>")  # noqa: S308 - every text escaped above


def table_pages(table, request) -> SafeString:
    """The pages of a table of more than one, as a labelled ``<nav>``: the page count, then links to the
    first, previous, nearby (django-tables2's ``table_page_range``), next and last pages."""
    page = getattr(table, "page", None)
    if not page or table.paginator.num_pages <= 1:
        return mark_safe("")
    number, pages = page.number, table.paginator.num_pages
    paged = _addresses(request, table.prefixed_page_field)

    def link(to, text, extra=""):
        return f'<li><a{extra} href="{paged(to)}">{escape(text)}</a></li>'

    items = [link(1, gettext("first"))] if number > 1 else []
    if page.has_previous():
        items.append(link(page.previous_page_number(), gettext("previous"), ' rel="prev"'))
    for shown in table_page_range(page, table.paginator):
        if shown == "...":
            items.append('<li aria-hidden="true">…</li>')
        else:
            items.append(link(shown, shown, ' aria-current="page" class="current"' if shown == number else ""))
    if page.has_next():
        items.append(link(page.next_page_number(), gettext("next"), ' rel="next"'))
    if number < pages:
        items.append(link(pages, gettext("last")))
    count = ngettext("Page %(number)s of %(pages)s", "Page %(number)s of %(pages)s", pages) % {
        "number": number,
        "pages": pages,
    }
    return mark_safe(  # noqa: S308 - every text escaped above
        f'<nav aria-label="{escape(gettext("Pages"))}" class="pages"><p class="page-count">{escape(count)}</p>'
        f'<ul class="pagination">{"".join(items)}</ul></nav>'
    )
