"""A table's header and page links keep the page's own query and change only the order or the page, in the
place the query has it (as django-tables2's ``querystring`` replaces a parameter), every text encoded and
escaped for the attribute: a reader sorting a filtered list keeps the filter. The links are the site's table
template's (``masterpoints/table.html``)."""

from __future__ import annotations

import re

import django_tables2 as tables
from django.test import RequestFactory


class Scores(tables.Table):
    name = tables.Column()
    score = tables.Column()

    class Meta:
        template_name = "masterpoints/table.html"


def links(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def table_head(table, request) -> str:
    return table.as_html(request).split("<thead>", 1)[1].split("</thead>", 1)[0]


def table_pages(table, request) -> str:
    return table.as_html(request).split("<nav", 1)[1].split("</nav>", 1)[0]


def configured(query: str, **paginate) -> tuple:
    request = RequestFactory().get("/list/" + query)
    table = Scores([{"name": f"P{n}", "score": n} for n in range(100)])
    tables.RequestConfig(request, paginate=paginate or False).configure(table)
    return table, request


def test_a_header_link_replaces_the_order_where_the_query_has_it_and_keeps_the_rest():
    table, request = configured("?club=5&sort=name&q=J%C3%B8rgen+%26+co&region=1&region=2")
    assert links(table_head(table, request)) == [
        "?club=5&amp;sort=-name&amp;q=J%C3%B8rgen+%26+co&amp;region=1&amp;region=2",
        "?club=5&amp;sort=score&amp;q=J%C3%B8rgen+%26+co&amp;region=1&amp;region=2",
    ]


def test_a_header_link_adds_the_order_after_the_query_when_it_has_none():
    table, request = configured("?club=5&q=%22x%22")
    assert links(table_head(table, request)) == [
        "?club=5&amp;q=%22x%22&amp;sort=name",
        "?club=5&amp;q=%22x%22&amp;sort=score",
    ]
    table, request = configured("")
    assert links(table_head(table, request)) == ["?sort=name", "?sort=score"]


def test_page_links_replace_the_page_and_keep_the_filter_and_the_order():
    table, request = configured("?page=3&club=5&sort=-score", per_page=10)
    found = links(table_pages(table, request))
    assert found[0] == "?page=1&amp;club=5&amp;sort=-score"  # first
    assert found[1] == "?page=2&amp;club=5&amp;sort=-score"  # previous
    assert found[-1] == "?page=10&amp;club=5&amp;sort=-score"  # last
    table, request = configured("?club=5", per_page=10)
    assert links(table_pages(table, request))[-1] == "?club=5&amp;page=10"
