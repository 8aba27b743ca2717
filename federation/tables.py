"""What every list page of the site shares: a bounded page size (D-Q55) and a list read a page at a time.
A table's header and pages are the site's table template's (``templates/masterpoints/table.html``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.paginator import Paginator

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
