"""What an award's explanation says, in the reader's language.

The engine explains every award with the rule ids it applied and its inputs under the rule books' own
symbols (``N``, ``D``, ``Q``, ``n1`` … for DBf § 405–406; ``B``, ``N``, ``T``, ``S``, ``s_k`` … for the HBS
formula), values as text (``engine.common.Explanation``). The ledger keeps them so, unchanged. The pages add
what each symbol stands for here; the engine's words and sentences in the values are translated by
``tournaments.engine_text``. A symbol not listed here is shown without a meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from masterpoints.engine.common import KIND_DECIMALS
from masterpoints.engine_text import translated
from masterpoints.numbers import shown_amount

#: The meaning of each symbol, per scheme (DBf: dbf.md § 1 and § 405–406, 412; HBS: the formula, H-3…H-9).
SYMBOLS = {
    "dbf": {
        "N": _("participants present in the section (§ 405B1)"),
        "D_raw": _("field met, before rounding and the surcharge (§ 405B6d–e)"),
        "D": _("field the scale is computed for (§ 406B3)"),
        "M": _("mass factor (§ 406)"),
        "MPmax": _("the winner's award on the base scale (§ 406B3)"),
        "p_max": _("places that receive points (§ 406B3)"),
        "Q": _("ratio between neighbouring places (§ 406B3)"),
        "n1": _("quota factor by number of boards (§ 405A3, B6c, B7c)"),
        "n2": _("large-tournament surcharge (§ 405B7f)"),
        "r": _("row-strength differential (§ 405B5)"),
        "S": _("the player's participation: 1 counts, 0 does not (§ 405A1)"),
        "m_post": _("multiplier after Q (§ 434A1c)"),
        "B": _("bonus factor (§ 412B)"),
        "K": _("matches each team plays (§ 412B)"),
        "T": _("number of teams"),
        "T_eff": _("teams counted: at most K + 1 in Monrad and Swiss (§ 405A5)"),
        "N_ref": _("boards for a full quota in a team match (§ 405A3)"),
        "f_row": _("row factor (§ 412B2)"),
        "place": _("place"),
        "boards": _("boards"),
        "boards_played": _("boards the player played, of those planned"),
        "category": _("point kind"),
        "form": _("form of play"),
        "organizer": _("organiser"),
        "eligibility": _("whether the player's participation counts"),
        "result": _("match result"),
        "tie": _("tie"),
        "reason": _("why"),
        "quota": _("sanction quota (§ 403B2)"),
        "w": _("result weight: 1 win, ½ draw, 0 loss (§ 411C)"),
        "share": _("share of the match the player played (§ 405A1)"),
    },
    "hbs": {
        "B": _("points for first place, per player (HBS formula)"),
        "N": _("units in the field: players, pairs or teams"),
        "T": _("½ individual, 1 pairs, 2 teams"),
        "S": _("tournament strength (list of recognised tournaments)"),
        "D": _("boards"),
        "n": _("units that receive points: half the field (H-3)"),
        "s_k": _("share of the place: ln((n + 1) / (k − 0.7))"),
        "s_1": _("share of first place"),
        "P_k": _("points for the place: B · s_k / s_1, rounded up (H-6)"),
        "B from": _("where B comes from (H-8)"),
        "kind": _("point kind"),
        "kinds from": _("where the point kind comes from"),
        "place": _("place"),
        "boards": _("boards"),
        "form": _("form of play"),
        "result": _("match result"),
        "tie": _("tie"),
        "reason": _("why"),
    },
}


@dataclass(frozen=True)
class Input:
    name: str
    value: str
    meaning: str


@dataclass(frozen=True)
class Explained:
    rules: tuple[str, ...]
    inputs: tuple[Input, ...]


def scheme_of(kind_or_scheme: str) -> str:
    """``dbf`` or ``hbs`` from a scheme code or a point kind (BP/SP/GP are DBf's; black/red/master HBS')."""
    if kind_or_scheme in SYMBOLS:
        return kind_or_scheme
    return "dbf" if kind_or_scheme in KIND_DECIMALS and kind_or_scheme.isupper() else "hbs"


def explained(explanation, kind_or_scheme: str) -> Explained:
    """The rule ids and the inputs of ``explanation`` (as stored: ``{"rules": […], "inputs": {…}}``, or the
    engine's ``Explanation``), each input with its meaning and its value in the reader's language."""
    if isinstance(explanation, Mapping):
        rules, inputs = explanation.get("rules") or (), explanation.get("inputs") or {}
    else:
        rules, inputs = explanation.rules, explanation.inputs
    pairs = inputs.items() if isinstance(inputs, Mapping) else inputs
    symbols = SYMBOLS[scheme_of(kind_or_scheme)]
    return Explained(
        tuple(rules),
        tuple(Input(name, translated(str(value)), str(symbols.get(name, ""))) for name, value in pairs),
    )


def explanation_html(explanation, kind_or_scheme: str) -> SafeString:
    """:func:`explained` as HTML: the rule ids, then each input as ``symbol = value – meaning``, amounts
    with the reader's decimal separator. Built in Python (a player's page shows a hundred of them); every
    text is escaped here."""
    why = explained(explanation, kind_or_scheme)
    items = "".join(
        f"<li><code>{escape(item.name)}</code> = {escape(shown_amount(item.value))}"
        + (f" <small>– {escape(item.meaning)}</small>" if item.meaning else "")
        + "</li>"
        for item in why.inputs
    )
    rules = escape(", ".join(why.rules))
    label = escape(gettext("Rules"))  # outside the f-string, where makemessages finds it
    return mark_safe(f'<p>{label}: {rules}</p><ul class="inputs">{items}</ul>')  # noqa: S308
