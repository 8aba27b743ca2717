"""An award explained in words: one or two sentences in the reader's language.

Built only from what the ledger stores: the award's explanation (the engine's rule ids and inputs, see
``masterpoints.explanations``), its amount, its source and the office's reason. Nothing is recomputed, so
a sentence cannot disagree with the ledger. The one exception reads: the HBS formula is written out with
the constants of the current rule set only when they give the stored B to its four stored decimals;
otherwise the sentence names B alone (it is never false for an older rule set).

The first sentence says how the tournament's scale works, the second what the reader got and why. The same
text is shown on the player's page, the tournament's page, the upload's preview and the calculator: each
shows :func:`explanation_block` (``{% explain %}`` in ``masterpoints.templatetags.points``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from federation.schemes import decimals_of, kind_counted, scheme_for
from masterpoints.engine.common import format_units
from masterpoints.engine_text import reason_text, translated
from masterpoints.explanation_store import loaded
from masterpoints.explanations import explanation_html
from masterpoints.numbers import decimal_separator, kind_label, shown_amount

#: A field of the engine's ``form`` (or HBS ``form``) counted: "12 pairs".
_FIELD = {
    "pairs": gettext_lazy("%(n)s pairs"),
    "individual": gettext_lazy("%(n)s players"),
    "minihold": gettext_lazy("%(n)s mini-teams"),
    "teams": gettext_lazy("%(n)s teams"),
}
_ORGANISERS = {
    "club": gettext_lazy("organised by a club"),
    "district": gettext_lazy("organised by a district"),
    "circle": gettext_lazy("organised by a circle"),
    "federation": gettext_lazy("organised by the federation"),
}
_VULGAR = {Fraction(1, 2): "½", Fraction(2, 3): "⅔", Fraction(1, 3): "⅓", Fraction(3, 4): "¾", Fraction(1, 4): "¼"}


def number(text) -> str:
    """A stored number as the reader writes it: ``2/3`` and ``0.666667`` (Q to six places) as ``⅔``, other
    decimals without trailing zeros (``9.2000`` → ``9.2``) and with the reader's separator. Each written
    once per process and separator: an explanation writes up to a dozen, the same few values on every page."""
    return _number(str(text), decimal_separator())


@functools.lru_cache(maxsize=4096)
def _number(value: str, separator: str) -> str:
    exact = _fraction(value)
    if exact is not None:
        for vulgar, sign in _VULGAR.items():
            if exact == vulgar or ("." in value and abs(exact - vulgar) < Fraction(1, 10**6)):
                return sign
    return _trimmed(value).replace(".", separator)


def _trimmed(value: str) -> str:
    """A decimal written with a point, without trailing zeros: ``9.2000`` → ``9.2``; anything else as is."""
    if "." in value and _fraction(value) is not None:
        return value.rstrip("0").rstrip(".")
    return value


def _fraction(value: str) -> Fraction | None:
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        return None


def points(amount, kind: str) -> str:
    """``24 BP``, ``30,7 SP``, ``5 black points``: an amount in the kind's decimals, as the reader writes it;
    a kind its rule book counts (``SchemeInfo.kind_counted``: HBS') with the number's plural form (a
    fraction such as ``9.2`` takes the form of many)."""
    shown = shown_amount(amount)
    counted = kind_counted(kind)
    if counted is None:
        return f"{shown} {kind_label(kind)}"
    value = _fraction(str(amount).replace(",", "."))
    count = abs(int(value)) if value is not None and value.denominator == 1 else 5
    return counted(count) % {"n": shown}


def award_sentences(explanation, kind: str, amount=None, *, source: str = "result", reason: str = "") -> list[str]:
    """The sentences for one award (or, without ``amount``, for a calculator's scale): what happened, then
    what the reader got. ``explanation`` as stored (``{"rules", "inputs", …}``), ``amount`` in the kind's
    decimals with a point (``Award.amount``), ``source`` the award's source (``Award.Source``)."""
    explanation = explanation if isinstance(explanation, Mapping) else {}
    inputs = explanation.get("inputs") if isinstance(explanation.get("inputs"), Mapping) else {}
    inputs = {str(key): str(value) for key, value in inputs.items()}
    rules = [str(rule) for rule in explanation.get("rules") or ()]
    got = points(amount, kind) if amount is not None else ""
    office = _office_sentence(explanation, source, got, reason)
    if office is not None:
        return office
    out = [_scale_sentence(inputs, rules, kind)]
    if got:
        out.append(_own_sentence(inputs, got))
    why_not = reason_text(explanation)
    if why_not:
        out.append(_("Why: %(reason)s.") % {"reason": why_not})
    if "§ 451A" in rules and "D-Q33" in rules:
        out.append(_("The office entered this result from the director's report (§ 451A)."))
    return [sentence for sentence in out if sentence]


def _office_sentence(explanation: Mapping, source: str, got: str, reason: str) -> list[str] | None:
    """Reversals, corrections, foreign points, opening balances and entries by hand: their own sentence,
    with the office's reason as written; ``None`` for a tournament result."""
    because = [_("Reason given: %(reason)s.") % {"reason": reason}] if reason else []
    if source == "reversal":
        return [
            _("This entry cancels the earlier award in full, so its points are taken back: %(points)s.")
            % {"points": got},
            *because,
        ]
    if source == "correction":
        return [_("The office corrected the points by %(points)s.") % {"points": got}, *because]
    if source == "foreign":
        return [
            _("Points won abroad (%(country)s, %(kind)s) converted to %(points)s (§ 401B).")
            % {"country": explanation.get("country", ""), "kind": explanation.get("foreign_kind", ""), "points": got},
            *because,
        ]
    if source == "transition":
        return [_("Opening balance carried over into the new system: %(points)s.") % {"points": got}, *because]
    if source == "manual":
        return [_("Entered by the office by hand: %(points)s.") % {"points": got}, *because]
    return None


def _scale_sentence(inputs: Mapping[str, str], rules: list[str], kind: str) -> str:
    """How the tournament's points were set, by the shape of the stored inputs."""
    if "MPmax" in inputs and "Q" in inputs:
        return _dbf_scale(inputs, rules, kind)
    if "w" in inputs and "M" in inputs:
        return _dbf_match(inputs, kind)
    if "K" in inputs and "B" in inputs:
        return _dbf_team_bonus(inputs, kind)
    if "match" in inputs and "B" in inputs:
        return _hbs_win(inputs, kind)
    if "n" in inputs and "B" in inputs:
        return _hbs_scale(inputs, kind)
    if "entered_by" in inputs:
        return _("The director entered this bonus by hand (§ 406B2, § 451A).")
    if "table" in inputs:
        return _("A bonus from the fixed table of the rules (%(rules)s).") % {"rules": ", ".join(rules)}
    return _("Scored under %(rules)s.") % {"rules": ", ".join(rules)} if rules else ""


def _field(inputs: Mapping[str, str], count: str) -> str:
    form = inputs.get("form", "")
    template = _FIELD.get(form)
    return str(template) % {"n": inputs.get(count, "")} if template else inputs.get(count, "")


def _dbf_scale(inputs: Mapping[str, str], rules: list[str], kind: str) -> str:
    """§ 406B1: the winner's award on the full scale (MPmax), the ratio Q between places, p_max places paid,
    then the factors that shrink or grow it (n1, r, m_post), every award rounded up (§ 406C)."""
    head = [_field(inputs, "N")]
    if inputs.get("boards"):
        head.append(_("%(boards)s boards") % {"boards": inputs["boards"]})
    if inputs.get("organizer") in _ORGANISERS:
        head.append(str(_ORGANISERS[inputs["organizer"]]))
    text = _(
        "%(field)s: the full scale gives the winner %(winner)s and each place below %(q)s of the one above, "
        "down to place %(places)s (§ 406B)"
    ) % {
        "field": ", ".join(part for part in head if part),
        "winner": points(inputs["MPmax"], kind),
        "q": number(inputs["Q"]),
        "places": inputs.get("p_max", ""),
    }
    factors = []
    if inputs.get("n1", "1") != "1":
        factors.append(_quota(inputs["n1"], rules))
    if inputs.get("r", "0") != "0":
        factors.append(_("the row's strength changes it by %(r)s (§ 405B5)") % {"r": _percent(inputs["r"])})
    if inputs.get("m_post", "1") != "1":
        factors.append(_("it is multiplied by %(m)s (§ 434A1c)") % {"m": number(inputs["m_post"])})
    return "; ".join([text, *factors]) + "; " + _("every award is rounded up (§ 406C).")


def _quota(n1: str, rules: list[str]) -> str:
    """Why n1 is not 1: a half-quota event (a sanction "med halv MP-uddeling", Klubsølv, the beginners'
    qualifiers: the engine's ``quota: half`` rule), or the number of boards (§ 405B6c, § 405B7c)."""
    values = {"n1": number(n1)}
    if any(rule.startswith("quota: half") for rule in rules):
        return _("a half-quota event pays %(n1)s of it (§ 403B2, § 433D2a, § 433E2)") % values
    board_rule = next((rule for rule in rules if rule in ("§ 405B6c", "§ 405B7c")), None)
    if board_rule:
        return _("with this number of boards it pays %(n1)s of it (%(rule)s)") % {**values, "rule": board_rule}
    return _("this event pays %(n1)s of it (quota factor n1)") % values


def _percent(text: str) -> str:
    value = _fraction(text) or Fraction(0)
    return f"{'+' if value > 0 else ''}{number(str(Decimal(value.numerator) / value.denominator * 100))} %"


def _dbf_match(inputs: Mapping[str, str], kind: str) -> str:
    """§ 406A1–2, § 411C: a team match is worth M, times n1 for its boards, times w for the result."""
    result = translated(inputs.get("result", ""))
    text = _(
        "A team match of %(boards)s boards (%(result)s): it is worth %(value)s, times n1 = %(n1)s for the "
        "boards (§ 405A3) and w = %(w)s for the result (§ 411C), rounded up"
    ) % {
        "boards": inputs.get("boards", ""),
        "result": result,
        "value": points(inputs["M"], kind),
        "n1": number(inputs.get("n1", "1")),
        "w": number(inputs["w"]),
    }
    if inputs.get("quota") == "half":
        text += "; " + _("a half-quota sanction halves it (§ 403B2)")
    return text + "."


def _dbf_team_bonus(inputs: Mapping[str, str], kind: str) -> str:
    """§ 406A3, § 412B: the bonus for the final placing, B·K for the winner and 2/(p + 1) of it for place p."""
    return _(
        "Team bonus for the final placing among %(teams)s teams: the winner gets B·K = %(b)s·%(k)s %(kind)s, "
        "times n1 = %(n1)s and the row factor %(row)s; place p gets 2/(p + 1) of that, rounded up, down to "
        "place %(places)s (§ 406A3, § 412B)."
    ) % {
        "teams": inputs.get("T_eff", inputs.get("T", "")),
        "b": number(inputs["B"]),
        "k": inputs["K"],
        "kind": kind_label(kind),
        "n1": number(inputs.get("n1", "1")),
        "row": number(inputs.get("f_row", "1")),
        "places": inputs.get("p_max", ""),
    }


def _hbs_formula(inputs: Mapping[str, str], kind: str) -> str:
    """``B = (3 + 12·1/5)·1·(1 + 24/12) − 7 = 9.2 black points`` when the current rule set's constants give
    the stored B; ``B = 9.2 …`` (fixed in advance, from bands, or an older rule set) otherwise."""
    b = points(_trimmed(inputs["B"]), kind)
    source = inputs.get("B from")
    if source:
        return _("B = %(b)s (%(source)s, H-8)") % {"b": b, "source": translated(source)}
    rules = scheme_for(kind).current_rules
    constants = [getattr(rules, name, None) for name in ("base", "field_divisor", "boards_divisor", "constant")]
    values = [_fraction(inputs.get(name, "")) for name in ("N", "T", "S", "D")]
    if None in constants or None in values:
        return _("B = %(b)s") % {"b": b}
    (base, divisor, per_boards, constant), (n, t, s, d) = constants, values
    computed = (base + n * t / divisor) * s * (1 + d / per_boards) + constant
    try:
        agrees = Decimal(inputs["B"]) == Decimal(computed.numerator / Decimal(computed.denominator)).quantize(
            Decimal(inputs["B"])
        )
    except (InvalidOperation, ArithmeticError):
        agrees = False
    if not agrees:
        return _("B = %(b)s") % {"b": b}
    minus = "−" if constant < 0 else "+"
    formula = (
        f"({number(base)} + {number(inputs['N'])}·{number(inputs['T'])}/{number(divisor)})·{number(inputs['S'])}"
        f"·(1 + {number(inputs['D'])}/{number(per_boards)}) {minus} {number(abs(constant))}"
    )
    return f"B = {formula} = {b}"


def _hbs_scale(inputs: Mapping[str, str], kind: str) -> str:
    """HBS formula, H-3, H-6, in words: what the winner gets and how far the scale reaches; the
    formula and the weights s_k are under "details" (:func:`hbs_formula_lines`)."""
    head = [_field(inputs, "N")]
    if inputs.get("D"):
        head.append(_("%(boards)s boards") % {"boards": inputs["D"]})
    if inputs.get("S") and not inputs.get("B from"):
        head.append(_("strength %(s)s") % {"s": number(inputs["S"])})
    values = {"field": ", ".join(head), "winner": points(_trimmed(inputs["B"]), kind), "n": inputs["n"]}
    if inputs.get("B from"):
        return _(
            "%(field)s: the winner gets %(winner)s (%(source)s); each place below gets less, on a curve that "
            "falls fastest at the top, down to place %(n)s; every award is rounded up to a whole point."
        ) % {**values, "source": translated(inputs["B from"])}
    return (
        _(
            "%(field)s: the HBS formula gives the winner %(winner)s for this field, these boards and this strength; "
            "each place below gets less, on a curve that falls fastest at the top, down to place %(n)s; every award "
            "is rounded up to a whole point."
        )
        % values
    )


def hbs_formula_lines(inputs: Mapping[str, str], kind: str) -> list[str]:
    """The HBS formula written out for "details" (the sentence says it in words): B, and for a scale
    the weights of the places (H-3, H-6), with the current rule set's offset where it gives the stored s_1."""
    inputs = {str(key): str(value) for key, value in inputs.items()}
    if "B" not in inputs or not ("n" in inputs or "match" in inputs) or "K" in inputs:
        return []
    lines = [_hbs_formula(inputs, kind)]
    if "n" in inputs:
        offset = _place_offset(inputs, kind)
        weights = "P_k = B·s_k/s_1"
        if offset is not None:
            shown = number(str(Decimal(offset.numerator) / offset.denominator))
            weights += f", s_k = ln((n + 1)/(k − {shown}))"
        lines.append(f"{weights}, n = {inputs['n']} (H-3, H-6)")
    return lines


def _place_offset(inputs: Mapping[str, str], kind: str) -> Fraction | None:
    """The current rule set's offset in ``s_k`` when ``ln((n + 1)/(1 − offset))`` is the stored ``s_1``."""
    offset = getattr(scheme_for(kind).current_rules, "place_offset", None)
    n, s_1 = _fraction(inputs.get("n", "")), inputs.get("s_1", "")
    if offset is None or n is None or _fraction(s_1) is None or offset >= 1:
        return None
    ratio = (n + 1) / (1 - offset)
    weight = (Decimal(ratio.numerator) / ratio.denominator).ln()
    return offset if weight.quantize(Decimal(s_1)) == Decimal(s_1) else None


def _hbs_win(inputs: Mapping[str, str], kind: str) -> str:
    """Rule 8, H-5: a won match of a long-running team competition scores B for N = 2 teams over its boards."""
    share = inputs.get("draw share")
    text = _(
        "Match %(match)s %(result)s: each won match scores like first place of two teams over its boards, "
        "%(points)s (rule 8)"
    ) % {
        "match": inputs["match"],
        "result": translated(inputs.get("result", "")),
        "points": points(_trimmed(inputs["B"]), kind),
    }
    if share:
        text += "; " + _("a draw scores %(share)s of it") % {"share": number(share)}
    return text + "."


def _own_sentence(inputs: Mapping[str, str], got: str) -> str:
    """What the reader got: the place (or the tie and its rule), their part of a match, then the amount."""
    parts = []
    # A tie: HBS writes the places as "3–4" with the unrounded share (H-7), DBf the tie as "2-3" (§ 405B3).
    tie, place = inputs.get("tie", ""), inputs.get("place", "")
    if "–" in place and inputs.get("share"):
        parts.append(
            _(
                "you shared places %(places)s: the tied entries share the sum of those places equally, %(share)s "
                "each before rounding up"
            )
            % {"places": place, "share": number(inputs["share"])}
        )
    elif tie:
        parts.append(
            _("you shared places %(places)s: the tied entries share the sum of those places equally (§ 405B3)")
            % {"places": tie.replace("-", "–")}
        )
    elif place:
        if inputs.get("P_k") and "=" not in inputs["P_k"]:
            parts.append(
                _("you finished in place %(place)s (%(p)s before rounding up)")
                % {"place": place, "p": number(inputs["P_k"])}
            )
        else:
            parts.append(_("you finished in place %(place)s") % {"place": place})
    share = inputs.get("share")
    if "w" in inputs and share and share != "1":
        parts.append(
            _("you played %(played)s of the boards, so you get that share (§ 405A1)")
            % {"played": inputs.get("boards_played", number(share))}
        )
    if inputs.get("boards played"):
        played = inputs["boards played"].split(" (")[0].replace(" of ", "/")
        parts.append(_("you played %(played)s boards (rule 6)") % {"played": played})
    if inputs.get("S") == "0" or (inputs.get("eligibility") and "K" in inputs):
        parts.append(translated(inputs.get("eligibility", "")))
    text = ", ".join(part for part in parts if part)
    if not text:
        return _("You get %(points)s.") % {"points": got}
    return _("%(what)s: %(points)s.") % {"what": text[0].upper() + text[1:], "points": got}


def explanation_block(explanation, kind: str, amount=None, *, source: str = "result", reason: str = "") -> SafeString:
    """The explanation as shown on every page: the sentences, and the variable table (rule ids and inputs
    with their meanings) behind a "details" toggle when the explanation has any. Built in Python, every text
    escaped here (a ledger page shows up to 200 of them, and ``format_html`` would be a large share of each
    one's cost)."""
    stored = explanation if isinstance(explanation, Mapping) else {}
    table = explanation_html(stored, kind) if stored.get("rules") or stored.get("inputs") else ""
    inputs = stored.get("inputs") if isinstance(stored.get("inputs"), Mapping) else {}
    formulas = hbs_formula_lines(inputs, _kind(stored, kind))  # by the inputs' shape: HBS scales and matches
    if formulas:
        table = "".join(f'<p class="formula">{escape(line)}</p>' for line in formulas) + table
    sentences = award_sentences(stored, _kind(stored, kind), amount, source=source, reason=reason)
    text = " ".join(sentence if isinstance(sentence, SafeString) else escape(sentence) for sentence in sentences)
    return why_block(text, table)


def why_block(text: str, table: str) -> SafeString:
    """An award's sentence (already escaped) and, where there is one, its variable table (escaped HTML) behind
    a "details" toggle: the one markup every page shows an award's why in."""
    details = f'<details class="why"><summary>{escape(_("details"))}</summary>{table}</details>' if table else ""
    return mark_safe(f'<div class="award-why"><p class="why-sentence">{text}</p>{details}</div>')  # noqa: S308


def _kind(explanation: Mapping, given: str) -> str:
    """The point kind a calculator's scale is for (the page knows only the scheme): the ``category`` input
    (DBf), else the scheme's default kind (HBS black points, H-1)."""
    info = scheme_for(given)
    if given in info.kinds:
        return given
    inputs = explanation.get("inputs") if isinstance(explanation.get("inputs"), Mapping) else {}
    category = str(inputs.get("category") or inputs.get("kind") or "")
    return category if category in info.kinds else info.default_category


def award_block(award) -> SafeString:
    """:func:`explanation_block` of a ledger row (``masterpoints.models.Award``)."""
    explanation = award.explanation_data
    return explanation_block(explanation, award.kind, award.amount, source=award.source, reason=award.reason)


#: Ledger rows' explanations kept as HTML in each process, by their stored content: one
#: explanation row serves every award of a tournament part with the same place and share, here and in other
#: tournaments with the same scale (``masterpoints.explanation_store``), so the newest awards of many players'
#: pages have the same words. About 3 KB each with their key.
KEPT_BLOCKS = 4096


def ledger_block(row, language: str | None = None) -> SafeString:
    """:func:`award_block` of a ledger row read with its explanation as stored JSON text
    (``masterpoints.public.ledger.LedgerRow``): built once per language, stored content, amount, source and
    reason, and kept (:data:`KEPT_BLOCKS`, the least recently shown dropped first). Keyed by the content
    itself, not a row's id, so a kept block is always the one its content gives. ``language``: the active
    language, when the caller has read it already (a page of rows reads it once)."""
    if row.scale_text is None:
        return award_block(row)
    language = language or get_language()
    return _kept_block(language, row.scale_text, row.own_text, row.kind, row.units, row.source, row.reason)


@functools.lru_cache(maxsize=KEPT_BLOCKS)
def _kept_block(language, scale_text: str, own_text: str, kind: str, units: int, source: str, reason: str):
    """Built in the active language, which ``language`` (a part of the key only) is."""
    amount = format_units(units, decimals_of(kind))
    return explanation_block(loaded(scale_text, own_text), kind, amount, source=source, reason=reason)
