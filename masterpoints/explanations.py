"""What an award's explanation says, in the reader's language.

The engine explains every award with the rule ids it applied and its inputs under the rule books' own
symbols (``N``, ``D``, ``Q``, ``n1`` … for DBf § 405–406; ``B``, ``N``, ``T``, ``S``, ``s_k`` … for the HBS
formula), values as text (``engine.common.Explanation``). The ledger keeps them so, unchanged. The pages add
what each symbol stands for here; the engine's words in the values are translated by
``masterpoints.engine_text``, and the ``reason`` input (why nothing is awarded) by the reason's code and
parameters when the explanation has them (``"reason": {"code", "params"}``); each scheme's symbols and their
meanings are in ``federation.schemes``. A symbol not listed there is shown without a meaning.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, override

from federation.schemes import scheme_for
from masterpoints.engine_text import as_reason, reason_text, translated
from masterpoints.numbers import shown_amount


@dataclass(frozen=True)
class Input:
    name: str
    value: str
    meaning: str


@dataclass(frozen=True)
class Explained:
    rules: tuple[str, ...]
    inputs: tuple[Input, ...]


def explained(explanation, kind_or_scheme: str) -> Explained:
    """The rule ids and the inputs of ``explanation`` (as stored: ``{"rules": […], "inputs": {…}}``, or the
    engine's ``Explanation``), each input with its meaning and its value in the reader's language."""
    if isinstance(explanation, Mapping):
        rules, inputs = explanation.get("rules") or (), explanation.get("inputs") or {}
        reason = as_reason(explanation.get("reason"))
    else:
        rules, inputs, reason = explanation.rules, explanation.inputs, explanation.reason
    pairs = inputs.items() if isinstance(inputs, Mapping) else inputs
    symbols = _meanings(scheme_for(kind_or_scheme).code, get_language())
    return Explained(
        tuple(rules),
        tuple(Input(name, _value(name, str(value), reason), symbols.get(name, "")) for name, value in pairs),
    )


@functools.cache
def _meanings(scheme: str, language: str | None) -> dict[str, str]:
    """What each symbol of ``scheme`` stands for, in ``language`` (translated once per process: a player's page
    shows a dozen symbols for each of its 25 awards)."""
    with override(language):
        return {name: str(meaning) for name, meaning in scheme_for(scheme).symbols.items()}


def _value(name: str, value: str, reason) -> str:
    """An input's value in the reader's language: the ``reason`` input by its code and parameters when it is
    the explanation's reason (an earlier reason of the same award, overtaken, is shown as written)."""
    if name == "reason" and reason is not None and value == reason.text:
        return reason_text(reason)
    return translated(value)


#: Input lines kept as HTML per process (``symbol = value – meaning`` of one scheme and language): the same
#: few hundred symbols and values recur on every page (``n = 24``, ``Q = 0.4``). About 0.3 KB each.
KEPT_ITEMS = 8192


def explanation_html(explanation, kind_or_scheme: str) -> SafeString:
    """:func:`explained` as HTML: the rule ids, then each input as ``symbol = value – meaning``, amounts
    with the reader's decimal separator. Built in Python (a player's page shows a hundred of them); every
    text is escaped here. Each line but the explanation's own ``reason`` is kept (:data:`KEPT_ITEMS`): a line
    is a function of the scheme, the language, the symbol and its value alone."""
    if isinstance(explanation, Mapping):
        rules, inputs = explanation.get("rules") or (), explanation.get("inputs") or {}
        reason = as_reason(explanation.get("reason"))
    else:
        rules, inputs, reason = explanation.rules, explanation.inputs, explanation.reason
    scheme, language = scheme_for(kind_or_scheme).code, get_language()
    items = "".join(
        _item_html(Input(name, reason_text(reason), _meanings(scheme, language).get(name, "")))
        if name == "reason" and reason is not None and str(value) == reason.text
        else _kept_item(scheme, language, name, str(value))
        for name, value in (inputs.items() if isinstance(inputs, Mapping) else inputs)
    )
    label = escape(gettext("Rules"))  # outside the f-string, where makemessages finds it
    return mark_safe(f'<p>{label}: {escape(", ".join(rules))}</p><ul class="inputs">{items}</ul>')  # noqa: S308


def _item_html(item: Input) -> str:
    meaning = f" <small>– {escape(item.meaning)}</small>" if item.meaning else ""
    return f"<li><code>{escape(item.name)}</code> = {escape(shown_amount(item.value))}{meaning}</li>"


@functools.lru_cache(maxsize=KEPT_ITEMS)
def _kept_item(scheme: str, language: str | None, name: str, value: str) -> str:
    """One input line in ``language``, the active one when it is called (the key holds it)."""
    return _item_html(Input(name, translated(value), _meanings(scheme, language).get(name, "")))
