"""The registry of rule books: what is structural per scheme, where DBf and HBS differ, and nowhere else.

A rule book is a plugin: a Django app of the :mod:`rulebooks` package (``rulebooks.dbf``, ``rulebooks.hbs``)
that builds one :class:`SchemeInfo` and hands it to :func:`register` from its ``AppConfig.ready``. The
registry never names a plugin, so a rule book is added by its package and one line of ``INSTALLED_APPS``.

A federation carries its scheme's code (``Federation.scheme``, whose choices are the registered codes);
everything that follows from it is read here (``scheme_of(federation)``): its point kinds, their decimals
and names and the standings columns that hold them (:data:`KIND_COLUMNS`, so a rule book adds no column and
no migration), its calculator, its rule-set class with the built-in sets and how one is chosen for a
date, its ladder, what a ranking can be ordered by, which workflows its rule book has, how an upload is
scored, and the season helpers. Values a rule book fixes (who may award what, § 403 and H-1; the season's
first day, § 451C; the title-mail months, § 451B; the HBS 1991 share, transition rule 3) are fields of the
dated rule set; the registry reads them from there.

No code outside the plugins, this module and the engine compares a scheme code: it asks the registry.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import Promise

from masterpoints.engine.common import RequestError
from masterpoints.engine.dbf.ranglist import RankingListRule

#: The longest scheme code (``Federation.scheme``'s column).
SCHEME_CODE_LENGTH = 8
#: How many point kinds a rule book may have: the standings keep each kind's balance in one of this many
#: generic columns (``kind1`` …), the kind's position in ``SchemeInfo.kinds`` naming its column.
KIND_SLOTS = 3
#: The standings column of the total the kinds add up to, where a rule book has one (DBf's MP, § 402).
TOTAL_COLUMN = "total"


def kind_column(position: int) -> str:
    """The standings column of the point kind at ``position`` (from 0) of a rule book's kinds."""
    return f"kind{position + 1}"


KIND_COLUMNS = tuple(kind_column(position) for position in range(KIND_SLOTS))


class RuleSet(Protocol):
    """What the site reads of a rule book's dated rule set (DBf's ``DbfRuleSet``, HBS' ``HbsRuleSet``): its name and
    first day, the season's first day (month, day), the months of the new-rung mail (§ 451B), the kinds an
    organiser of a level may award (§ 403, H-1), and its JSON form for the secretariat's dated overrides."""

    name: str
    valid_from: datetime.date
    season_start: tuple[int, int]
    title_mail_months: tuple[int, ...]

    def awards_of(self, organiser: str) -> tuple[str, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet: ...


class Ladder(Protocol):
    """A rule book's titles or categories under one rule set (``ladder_class(rules)``), rungs numbered from 1: the
    rung a balance reaches (``computed``, the balances in the order of the rule book's kinds; 0 = none), a rung by
    number, and what a rung measures a balance against (``measures``: (have, needed) pairs)."""

    rules: Any
    rungs: tuple[Any, ...]

    def rung_of(self, number: int) -> Any: ...

    def computed(self, balances: Sequence[int]) -> int: ...

    def measures(self, number: int, balances: Sequence[int]) -> list[tuple[int, Any]]: ...


@dataclass(frozen=True)
class Balance:
    """One amount of a player's balance as pages show it: its label (a kind, or the total's name), the
    standings column that holds it, and its decimals."""

    label: str
    column: str
    decimals: int


@dataclass(frozen=True)
class RankingKind:
    """One order of a ranking list: the query value and its label. A point kind's value ranks by that kind's
    balance; any other value by the rule book's own order (``SchemeInfo.sort_key``)."""

    value: str
    label: Promise


@dataclass(frozen=True)
class EventNature:
    """One answer to the upload's question what kind of event it was (HBS rules 1, 8 and 11): ``scored``
    False refuses the upload with the rule the label cites."""

    value: str
    label: Promise
    scored: bool = True


@dataclass(frozen=True)
class SchemeInfo:
    """Everything structural about one scheme: what its plugin registers."""

    code: str
    #: The scheme as the federation's form offers it.
    label: Promise
    #: The point kinds in the order pages show them (at most :data:`KIND_SLOTS`).
    kinds: tuple[str, ...]
    #: Each kind's decimals: its amounts are integer units of 10^-decimals (DBf SP 1, GP 2; § 402).
    kind_decimals: dict[str, int]
    #: Each kind's name as pages show it alone (a column's header, "24 BP"), in the reader's language.
    kind_names: dict[str, Promise]
    #: Each kind's name in lists and choices ("bronze points").
    kind_titles: dict[str, Promise]
    #: The total the kinds' units add up to, shown before them (DBf § 402: 100 BP = 10 SP = 1 GP = 1 MP, every
    #: unit 0.01 MP); ``None``: the kinds stay apart (HBS H-2).
    total: Balance | None
    #: ``sort_key(balances, rung)``: the integer a player's place is ranked by (higher first), from the
    #: balances in the order of ``kinds`` and the rung held.
    sort_key: Callable[[tuple[int, ...], int], int]
    #: ``season_key_sql(columns)``: the same over a season's sums in SQL (a season has no rung), ``columns``
    #: the SQL of the kinds' sums in the order of ``kinds``.
    season_key_sql: Callable[[tuple[str, ...]], str]
    #: ``rung_status(info, ladder, balances, held)``: the rung shown and what the next needs (a
    #: ``masterpoints.standings.titles.TitleStatus``), the balances in the order of ``kinds``.
    rung_status: Callable[..., Any]
    rule_set_class: type[RuleSet]
    #: The rule sets the engine ships, oldest first.
    built_in: tuple[RuleSet, ...]
    #: ``choose(on_date, candidates)``: the newest candidate valid on the date (``LookupError`` if none).
    choose: Callable[[datetime.date, Iterable[RuleSet]], RuleSet]
    ladder_class: Callable[[RuleSet], Ladder]
    #: The subject of the monthly mail of new rungs to a club (§ 451B; ``%(month)s``, ``%(club)s``).
    rung_mail_subject: Promise
    #: The rule book as the site's footer names it, among the others.
    rule_book_title: Promise
    #: What a list can be ranked by; the first is the default.
    ranking_kinds: tuple[RankingKind, ...]
    #: The kind an upload or import awards when nobody names one.
    default_category: str
    #: The 8-bit code pages a results file without a declared encoding is tried in (formats.md § 5.3):
    #: Danish text is Windows-1252 or Latin-1 far more often than Windows-1250, Croatian the other way round.
    fallback_encodings: tuple[str, ...]
    #: The rule an upload cites when its organiser may not award the kind asked for.
    award_rule: Promise
    #: The upload page's form (a ``masterpoints.uploads.forms.ResultUploadForm`` with the fields and facts the
    #: rule book asks beyond every rule book's).
    upload_form: type
    #: The public calculator's tabs of the rule book (``?calc=`` value → a
    #: ``masterpoints.public.forms.CalculatorForm``), in the order the page shows them.
    calculators: dict[str, type]
    #: ``calculate(request)``: the rule book's answer to one calculator request (a mapping of the JSON interface,
    #: ``shared/spec/engine-cli.md``); raises ``masterpoints.engine.common.RequestError`` naming the field.
    calculate: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: ``awards_beyond(preview, allowed, today)``: the kinds the upload's organiser may award beyond the rule
    #: set's table (``allowed``), adding the preview's issues that decide it (a DBf sanction, an HBS list entry).
    awards_beyond: Callable[..., tuple[str, ...]]
    #: The upload adapter that scores a checked file's event (called with the preview).
    scoring_adapter: Callable[[Any], Any]
    #: Words the pages use for the scheme's ladder and season.
    rung_label: Promise
    rung_reached_intro: Promise
    season_note: Promise
    ranking_note: Promise
    #: What each symbol of the engine's explanations stands for in this rule book.
    symbols: dict[str, Promise]
    # --- what only some rule books have (the defaults: none of it) -------------------------------------
    #: The tournament forms the secretariat enters because no upload reaches them (DBf § 451A, D-Q33; empty:
    #: the scheme has none) and the adapter that scores such an entry (``None``: the scheme has none).
    office_forms: tuple[Any, ...] = ()
    office_scoring_adapter: Callable[[Any], Any] | None = None
    #: HBS publishes only the official list by default (rule 3; guests on request, rule 4).
    official_list_by_default: bool = False
    #: Workflows of the scheme's rule book.
    sanctions: bool = False  # DBf § 403A–B
    #: A tournament is played in one of the club's weekly playing times, which the rules count by (DBf
    #: § 403A2, § 403B1–2, § 452A "hver ugentlig spilleperiode for sig"): the upload records it.
    playing_times: bool = False
    foreign_points: bool = False  # DBf § 401B
    cups: bool = False  # DBf § 451C–E
    recognised_list: bool = False  # HBS H-1: the annual list of recognised tournaments
    transition: bool = False  # HBS transition rules 1–8
    #: The rule that limits correction requests to the windows the office opens ("" = no windows).
    correction_window_rule: str = ""
    #: How long that rule's period lasts, in years: every window lies within it (H-12; 0 without windows).
    correction_window_years: int = 0
    #: The rule that makes a correction request carry a document ("" = a document is optional; H-14).
    correction_document_rule: str = ""
    #: What the upload asks about the event's nature, the first the default (empty: it does not ask).
    event_natures: tuple[EventNature, ...] = ()
    #: The refusal of an event whose nature is not scored (``%(nature)s`` is the director's answer).
    unscored_refusal: Promise | str = ""
    #: Forms whose several session rankings in one file are one compound tournament (HBS rule 7, H-16).
    compound_forms: tuple[str, ...] = ()
    #: The upload form's help texts that depend on the rule book (field name → text; none: no help text).
    upload_help: dict[str, Promise] = field(default_factory=dict)
    #: The weighted list of the last three years beside the lifetime points (DBf's "ranglisten", published
    #: on DBf's site, not in the rule book; D-Q56–D-Q60); ``None``: the scheme has none.
    ranking_list: RankingListRule | None = None
    #: HBS rule 2 (tourist tournaments approved one by one) and rule 10 (licensed internet directors).
    tourists_and_licences: bool = False
    #: A kind's amount counted in the reader's plural forms (``count`` → ``"%(n)s black points"``, HBS'
    #: "3 crna poena", "5 crnih poena"); a kind without is written as its name after the amount ("24 BP").
    kind_counted: dict[str, Callable[[int], str]] = field(default_factory=dict)

    # --- rule sets ---------------------------------------------------------------------------------

    @property
    def current_rules(self):
        """The newest built-in rule set: the source of the structural values below."""
        return self.built_in[-1]

    def nature(self, value: str | None) -> EventNature | None:
        """The nature ``value`` names; empty is the default (the first); ``None`` when it names none."""
        if not self.event_natures:
            return None
        if not value:
            return self.event_natures[0]
        return next((nature for nature in self.event_natures if nature.value == value), None)

    def ladder(self, rules: RuleSet) -> Ladder:
        return self.ladder_class(rules)

    def column(self, kind: str) -> str:
        """The standings column that holds the balance of ``kind``, one of the rule book's kinds."""
        return kind_column(self.kinds.index(kind))

    @property
    def kind_columns(self) -> tuple[str, ...]:
        """The standings columns of the rule book's kinds, in the order of ``kinds``."""
        return tuple(self.column(kind) for kind in self.kinds)

    @property
    def balances(self) -> tuple[Balance, ...]:
        """What a balance shows, in order: the total where the kinds add up to one, then each kind."""
        kinds = tuple(Balance(kind, self.column(kind), self.kind_decimals[kind]) for kind in self.kinds)
        return ((self.total,) if self.total else ()) + kinds

    @property
    def headline(self) -> tuple[Balance, ...]:
        """The amounts that sum a balance up in one place (a chart's lines, a one-cell summary): the total
        where the kinds add up to one, else every kind."""
        return (self.total,) if self.total else self.balances

    @property
    def balance_columns(self) -> tuple[str, ...]:
        """The standings columns a list shows: the total where there is one, then each kind's."""
        return tuple(balance.column for balance in self.balances)

    @property
    def whole_column(self) -> str:
        """The list's column whose header ranks by the default order: the total, or the rung (HBS rule 5
        ranks by category first)."""
        return self.total.column if self.total else "title"

    def primary_column(self, kind: str | None) -> str:
        """The balance column a narrow screen keeps next to the place and the name: the ranked kind's, or in
        the default order the measure the ladder uses (DBf total MP, § 404; HBS master points, the highest
        kind, rule 5)."""
        column = self.ranking_column(kind)
        if column in self.balance_columns:
            return column
        return self.total.column if self.total else self.balance_columns[-1]

    def ranking_column(self, kind: str | None) -> str:
        """The standings column a list is ranked by for ``kind`` (the default order when unknown)."""
        ranking = next((k for k in self.ranking_kinds if k.value == kind), self.ranking_kinds[0])
        return self.column(ranking.value) if ranking.value in self.kinds else "sort_key"

    # --- seasons (DBf § 451C: 16 May – 15 May; HBS the calendar year) ------------------------------

    @property
    def season_start(self) -> tuple[int, int]:
        """(month, day) of a season's first day, from the rule set. One boundary for the whole history:
        a season that moved with a dated rule set would put one award in two seasons."""
        return tuple(self.current_rules.season_start)

    def season_of(self, day: datetime.date) -> int:
        """The season ``day`` falls in, named by the year it starts in."""
        month, first = self.season_start
        return day.year if (day.month, day.day) >= (month, first) else day.year - 1

    def season_dates(self, season: int) -> tuple[datetime.date, datetime.date]:
        """First and last day of ``season`` (both inclusive)."""
        month, first = self.season_start
        start = datetime.date(season, month, first)
        return start, datetime.date(season + 1, month, first) - datetime.timedelta(days=1)

    def season_label(self, season: int) -> str:
        """``2024/25`` for a season across the new year (DBf), ``2024`` for a calendar year (HBS)."""
        return str(season) if self.season_start == (1, 1) else f"{season}/{(season + 1) % 100:02d}"


_REGISTERED: dict[str, SchemeInfo] = {}


def register(info: SchemeInfo) -> None:
    """Add a rule book (its plugin's ``AppConfig.ready`` calls this once). A second rule book under the same
    code, or one that claims a point kind another already has, is a configuration error: the registry
    resolves a kind to its one scheme."""
    if info.code in _REGISTERED:
        raise ImproperlyConfigured(f"The rule book {info.code!r} is registered twice.")
    if len(info.code) > SCHEME_CODE_LENGTH:
        raise ImproperlyConfigured(f"A scheme code has at most {SCHEME_CODE_LENGTH} characters: {info.code!r}.")
    if len(info.kinds) > KIND_SLOTS:
        raise ImproperlyConfigured(
            f"The rule book {info.code!r} has {len(info.kinds)} point kinds; the standings hold {KIND_SLOTS}."
        )
    if info.total is not None and info.total.column != TOTAL_COLUMN:
        raise ImproperlyConfigured(f"The rule book {info.code!r} keeps its total in the column {TOTAL_COLUMN!r}.")
    taken = {kind: other.code for other in _REGISTERED.values() for kind in other.kinds}
    clash = sorted(kind for kind in info.kinds if kind in taken)
    if clash:
        raise ImproperlyConfigured(f"The rule book {info.code!r} claims point kinds of another: {', '.join(clash)}.")
    _REGISTERED[info.code] = info


def unregister(code: str) -> None:
    """Take a rule book out of the registry (a test's own rule book, once its test is over)."""
    del _REGISTERED[code]


def registered() -> tuple[SchemeInfo, ...]:
    """The registered rule books, in the order of ``INSTALLED_APPS``."""
    return tuple(_REGISTERED.values())


def scheme_choices() -> list[tuple[str, Promise]]:
    """The choices of ``Federation.scheme``: the registered codes with their labels."""
    return [(info.code, info.label) for info in _REGISTERED.values()]


def default_scheme() -> SchemeInfo:
    """The scheme pages assume before any federation exists (an empty list, whatever its columns): the
    first rule book registered."""
    return next(iter(_REGISTERED.values()))


def scheme_of(federation_or_code) -> SchemeInfo:
    """The registry entry of a federation (anything with ``.scheme``), of a scheme code, or the entry itself."""
    if isinstance(federation_or_code, SchemeInfo):
        return federation_or_code
    code = getattr(federation_or_code, "scheme", federation_or_code)
    return _REGISTERED[code]


def scheme_with(workflow: str) -> SchemeInfo:
    """The scheme whose rule book has ``workflow`` (each workflow belongs to one rule book)."""
    return next(info for info in _REGISTERED.values() if getattr(info, workflow))


def scheme_for(kind_or_code: str) -> SchemeInfo:
    """The scheme of a scheme code or of one of its point kinds (BP/SP/GP are DBf's; black/red/master HBS')."""
    if kind_or_code in _REGISTERED:
        return _REGISTERED[kind_or_code]
    return next(info for info in _REGISTERED.values() if kind_or_code in info.kinds)


def decimals_of(kind: str) -> int:
    """The decimals of a registered point kind (its rule book's ``kind_decimals``)."""
    return scheme_for(kind).kind_decimals[kind]


def calculate(request: Any) -> dict[str, Any]:
    """One calculator request (``shared/spec/engine-cli.md``) answered by the registered rule book its
    ``scheme`` names; raises :class:`RequestError` naming the field at fault."""
    if not isinstance(request, Mapping):
        raise RequestError("request", "the request must be a JSON object")
    code = request.get("scheme")
    if code not in _REGISTERED:
        known = ", ".join(f'"{code}"' for code in _REGISTERED)
        raise RequestError("scheme", f"'scheme' is one of the rule books: {known}")
    return _REGISTERED[code].calculate(request)


def kind_name(kind: str) -> str | Promise:
    """A registered point kind's name as pages show it (its rule book's ``kind_names``); anything else (a
    total such as ``MP``) as it is written."""
    return next((info.kind_names[kind] for info in _REGISTERED.values() if kind in info.kind_names), kind)


def kind_counted(kind: str) -> Callable[[int], str] | None:
    """How a registered kind's amount is counted in the reader's plural forms, if its rule book says."""
    return next((info.kind_counted[kind] for info in _REGISTERED.values() if kind in info.kind_counted), None)


def kind_choices() -> list[tuple[str, Promise]]:
    """Every registered point kind with its name, rule book by rule book: the choices of a ledger row's kind
    and of a tournament's category (a callable, so that a new rule book needs no migration)."""
    return [(kind, info.kind_titles[kind]) for info in _REGISTERED.values() for kind in info.kinds]


def codes_with(workflow: str) -> tuple[str, ...]:
    """The scheme codes whose rule book has ``workflow`` (a boolean field of :class:`SchemeInfo`)."""
    return tuple(code for code, info in _REGISTERED.items() if getattr(info, workflow))
