"""A player's points over time as a server-rendered SVG (no JavaScript, no CDN).

The balance is a step function: it holds between award dates and jumps on each. DBf draws the total in
MP (the measure titles use, § 404); HBS draws its three kinds, which never convert (one line each).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from federation.schemes import SchemeInfo
from masterpoints.numbers import decimal_separator, kind_label, shown_units

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 32


def _lines(info: SchemeInfo) -> tuple:
    """The chart's lines: the scheme's headline amounts (DBf one line of total MP, § 402: every unit is 0.01 MP,
    the sum of the kinds' units; HBS one per kind)."""

    def amount(balance):
        kinds = info.kinds if balance is info.total else (balance.label,)
        return lambda totals: sum(totals.get(kind, 0) for kind in kinds)

    return tuple((balance.label, amount(balance), balance.decimals) for balance in info.headline)


@dataclass(frozen=True)
class Chart:
    svg: SafeString
    lines: tuple[tuple[str, str], ...]  # (kind, final amount) for the legend and for screen readers
    #: (number, title, day as the reader writes it): the marks of the chart, numbered on it and listed under it,
    #: so a phone (no hover) reads them too.
    marks: tuple[tuple[int, str, str], ...] = ()


def _nice_ceiling(value: int) -> int:
    """A round upper bound of the y axis (1, 2 or 5 times a power of ten)."""
    if value <= 0:
        return 1
    power = 1
    while power * 10 <= value:
        power *= 10
    for step in (1, 2, 5, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def points_chart(
    series: Sequence[tuple[datetime.date, dict[str, int]]],
    scheme: SchemeInfo,
    marks: Sequence[tuple[datetime.date, str]] = (),
) -> Chart | None:
    """The chart of ``series`` (cumulative units per kind after each award day), or ``None`` without awards.
    ``marks``: the titles or categories reached (§ 404, H-2), each a dashed line on its day named by a title."""
    if not series:
        return None
    lines = _lines(scheme)
    # The axis spans the awards and the days titles were reached: a title registered after the last award's
    # date (§ 404A "efter registrering", D-Q21) is marked on its own day, not left out.
    days = [series[0][0], series[-1][0], *(day for day, _label in marks)]
    first = min(days)
    last = max(max(days), first + datetime.timedelta(days=1))
    span = (last - first).days
    values = [[value(totals) for _day, totals in series] for _kind, value, _d in lines]
    top = _nice_ceiling(max(max(v) for v in values))
    bottom = min(0, min(min(v) for v in values))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(day: datetime.date) -> float:
        return LEFT + plot_w * (day - first).days / span

    def y(units: int) -> float:
        return TOP + plot_h * (top - units) / (top - bottom)

    parts = []
    decimals = lines[0][2]
    separator = decimal_separator()
    for fraction in (0, 0.5, 1):
        units = round(bottom + (top - bottom) * fraction)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(units):.1f}" y2="{y(units):.1f}"/>'
            f'<text class="tick" x="{LEFT - 6}" y="{y(units) + 4:.1f}" text-anchor="end">'
            f"{escape(shown_units(units, decimals, separator))}</text>"
        )
    for year in range(first.year + 1, last.year + 1):
        day = datetime.date(year, 1, 1)
        parts.append(
            f'<line class="grid" x1="{x(day):.1f}" x2="{x(day):.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
            f'<text class="tick" x="{x(day):.1f}" y="{HEIGHT - 10}" text-anchor="middle">{year}</text>'
        )
    if first.year == last.year:
        parts.append(f'<text class="tick" x="{LEFT}" y="{HEIGHT - 10}">{first.year}</text>')
    numbered = []
    for number, (day, label) in enumerate(sorted(marks), start=1):
        shown_day = date_format(day)
        numbered.append((number, label, shown_day))
        name = escape(f"{number}. {label} ({shown_day})")
        parts.append(
            f'<g class="mark"><title>{name}</title><line x1="{x(day):.1f}" x2="{x(day):.1f}" y1="{TOP + 9}" '
            f'y2="{HEIGHT - BOTTOM}"/><circle cx="{x(day):.1f}" cy="{TOP + 1}" r="9"/>'
            f'<text x="{x(day):.1f}" y="{TOP + 5.5}" text-anchor="middle">{number}</text></g>'
        )
    legend = []
    for (kind, _value, line_decimals), points in zip(lines, values, strict=True):
        path = [f"M{x(series[0][0]):.1f},{y(points[0]):.1f}"]
        for (day, _totals), units in zip(series[1:], points[1:], strict=True):
            path.append(f"H{x(day):.1f}V{y(units):.1f}")
        path.append(f"H{x(last):.1f}")
        name = escape(kind_label(kind))
        parts.append(f'<path class="line line-{kind}" d="{"".join(path)}"><title>{name}</title></path>')
        legend.append((kind, shown_units(points[-1], line_decimals, separator)))
    summary = ", ".join(f"{kind_label(kind)} {amount}" for kind, amount in legend)
    title = escape(_("Points over time"))
    desc = escape(
        _("From %(first)s to %(last)s; now %(summary)s.")
        % {"first": date_format(first), "last": date_format(series[-1][0]), "summary": summary}
    )
    svg = (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="chart-title">{title}</title>'
        f'<desc id="chart-desc">{desc}</desc>{"".join(parts)}</svg>'
    )
    return Chart(mark_safe(svg), tuple(legend), tuple(numbered))  # noqa: S308 - numbers and escaped text only
