"""The engine's words and reasons in the reader's language.

The engine (``masterpoints.engine``) is pure Python without Django. Why nothing (or a zero) is awarded it
reports as a :class:`~masterpoints.engine.common.Reason`: a stable code with its parameters as text, and an
English sentence from the engine's one table of templates (``common.REASON_TEMPLATES``). The ledger keeps
the code and parameters in the award's explanation (``"reason": {"code", "params"}``), the JSON interface
gives ``reason_code`` and ``reason_params`` beside the English ``reason``. A page translates the code's
template below and fills in the parameters (fixed words among them translated too): nothing is parsed.
Other values the engine writes are its fixed words (:data:`_WORDS`), shown translated, or numbers and
rule ids, shown as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from masterpoints.engine.common import REASON_TEMPLATES, Reason

#: The engine's fixed words and sentences (as whole values, or carried inside a sentence below).
_WORDS = {
    "pairs": _("pairs"),
    "individual": _("individual"),
    "teams": _("teams"),
    "players": _("players"),
    "minihold": _("mini-teams"),
    "club": _("club"),
    "district": _("district"),
    "full": _("full"),
    "half": _("half"),
    "win": _("win"),
    "loss": _("loss"),
    "draw": _("draw"),
    "played this session (§ 405B6b)": _("played this session (§ 405B6b)"),
    "did not play this session": _("did not play this session"),
    "played at least half (§ 405B7b)": _("played at least half (§ 405B7b)"),
    "played less than half (§ 405B7b)": _("played less than half (§ 405B7b)"),
    "substitute with at least half (§ 405B7b)": _("substitute with at least half (§ 405B7b)"),
    "substitute with less than half (§ 405B7b)": _("substitute with less than half (§ 405B7b)"),
    "played at least half the team's boards (§ 411D)": _("played at least half the team's boards (§ 411D)"),
    "less than half": _("less than half"),
    "list of recognised tournaments": _("list of recognised tournaments"),
    "unlisted event default": _("default for an event not on the list"),
    "fixed in advance": _("fixed in advance"),
    "substitutes and unregistered players get no GP bonus (§ 414A)": _(
        "substitutes and unregistered players get no GP bonus (§ 414A)"
    ),
    "no boards were played, so there is no bonus (§ 405A4)": _("no boards were played, so there is no bonus (§ 405A4)"),
    "the § 406B2 pair bonus formula is not confirmed (D-Q15): the director enters it by hand (§ 451A)": _(
        "the § 406B2 pair bonus formula is not confirmed (D-Q15): the director enters it by hand (§ 451A)"
    ),
}

#: Each reason code of the engine (``common.REASON_TEMPLATES``) in the reader's language, its parameters as
#: ``%(name)s``. The English msgids are the engine's sentences where they read the same (the catalogues in
#: ``locale/`` translate them), so a code keeps its translation when the engine's wording is unchanged.
REASONS = {
    "BP_TOO_FEW_BOARDS": _("too few boards: %(boards)s < %(need)s per playing day, no BP (%(rule)s)"),
    "SPGP_TOO_FEW_BOARDS": _("too few boards: %(boards)s < %(need)s in the tournament, no %(kind)s (%(rule)s)"),
    "PAIR_BONUS_BY_HAND": _WORDS[
        "the § 406B2 pair bonus formula is not confirmed (D-Q15): the director enters it by hand (§ 451A)"
    ],
    "NO_BOARDS_NO_BONUS": _WORDS["no boards were played, so there is no bonus (§ 405A4)"],
    "B_NOT_POSITIVE": _("B = %(b)s is not positive and this rule set awards nothing then (H-6 setting)"),
    "NO_PLACE_PAID": _("%(share)s %% of %(n)s rounded %(rounding)s pays no place (H-3)"),
    "PLACE_NOT_PAID": _("place %(place)s lies beyond the %(n)s paid places (H-3)"),
    "TEAM_SHARE_TOO_SMALL": _("played less than %(share)s (rule 6, H-9)"),
    "MATCH_SHARE_TOO_SMALL": _("played less than %(share)s of the match (H-9)"),
    "MATCH_TOO_SHORT_FOR_WIN": _("a match of %(boards)s boards is not scored per win: it needs %(need)s (H-5)"),
    "FIELD_BELOW_MINIMUM": _(
        "field below the minimum: %(n)s %(noun)s took part, a tournament of %(form)s needs at least "
        "%(minimum)s %(noun)s to score (rule 5, H-10); nothing is awarded"
    ),
}

#: Input values the engine writes as a fixed start and a list (H-8 bands): the start is translated, the list
#: (numbers and symbols) kept.
_STARTS = {"bands by field size: ": (_("bands by field size: %(bands)s"), "bands")}


def _english() -> bool:
    return (get_language() or "en").startswith("en")


def translated(sentence: str | Reason | None) -> str:
    """``sentence`` in the active language when it is one of the engine's fixed words or starts (H-8 bands);
    else as written (numbers, rule ids, an English sentence of a stored explanation that has no reason code).
    A :class:`Reason` (or ``None``) is :func:`reason_text`: translated by its code and parameters."""
    if sentence is None or isinstance(sentence, Reason):
        return reason_text(sentence)
    if sentence in _WORDS:
        return str(_WORDS[sentence])
    for start, (text, name) in _STARTS.items():
        if sentence.startswith(start):
            return sentence if _english() else str(text) % {name: sentence[len(start) :]}
    return sentence


def as_reason(value: Any) -> Reason | None:
    """The engine's :class:`Reason` from itself, its stored form ``{"code", "params"}``, an explanation as
    stored (``{"rules", "inputs", "reason"}``) or a calculator answer (``reason_code``, ``reason_params``);
    ``None`` when there is none or the code is not one of the engine's."""
    if isinstance(value, Reason) or value is None:
        return value
    if not isinstance(value, Mapping):
        return None
    if "reason_code" in value:
        value = {"code": value["reason_code"], "params": value.get("reason_params")}
    elif isinstance(value.get("reason"), Mapping):
        value = value["reason"]
    code, params = value.get("code"), value.get("params") or {}
    if code not in REASON_TEMPLATES or not isinstance(params, Mapping):
        return None
    try:
        reason = Reason.from_dict({"code": code, "params": params})
        reason.text  # noqa: B018 - every parameter the template names is there
    except (KeyError, IndexError, ValueError):
        return None
    return reason


def reason_text(value: Any) -> str:
    """Why nothing is awarded, in the active language, from the reason's code and parameters (a
    :class:`Reason`, its stored dict, a stored explanation or a calculator answer: see :func:`as_reason`).
    Fixed words among the parameters (``pairs``, ``individual``) are translated too. In English, and for a
    code without a translation here, the engine's own sentence; nothing when there is no reason."""
    reason = as_reason(value)
    if reason is None:
        return ""
    template = REASONS.get(reason.code)
    if template is None or _english():
        return reason.text
    return str(template) % {name: str(_WORDS.get(param, param)) for name, param in reason.params}


#: :func:`translated` at the moment the text is shown (an upload's issues are built before the page; its
#: NOTHING_AWARDED issue passes the engine's :class:`Reason`, translated by the code then).
translated_lazy = lazy(translated, str)
#: :func:`reason_text` at the moment the text is shown (the NOTHING_AWARDED issue of an upload's preview).
reason_text_lazy = lazy(reason_text, str)
