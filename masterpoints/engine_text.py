"""The engine's sentences in the reader's language.

The engine (``masterpoints.engine``) is pure Python without Django and writes its few sentences in English:
why nothing is awarded, why a player's participation does not count. The ledger and the JSON interface keep
them so. For a page these are matched against the known forms below and translated, with the numbers and
rule ids they carry; a sentence of another form is shown as written.
"""

from __future__ import annotations

import re

from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

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

#: (the engine's form, its translation); named groups are the values carried over.
_SENTENCES = [
    (
        r"too few boards: (?P<boards>\d+) < (?P<need>\d+) per playing day, no BP \((?P<rule>[^)]+)\)",
        _("too few boards: %(boards)s < %(need)s per playing day, no BP (%(rule)s)"),
    ),
    (
        r"too few boards: (?P<boards>\d+) < (?P<need>\d+) in the tournament, no (?P<kind>SP|GP) \((?P<rule>[^)]+)\)",
        _("too few boards: %(boards)s < %(need)s in the tournament, no %(kind)s (%(rule)s)"),
    ),
    (
        r"B = (?P<b>\S+) is not positive and this rule set awards nothing then \(H-6 setting\)",
        _("B = %(b)s is not positive and this rule set awards nothing then (H-6 setting)"),
    ),
    (
        r"place (?P<place>\S+) lies beyond the (?P<n>\d+) paid places \(H-3\)",
        _("place %(place)s lies beyond the %(n)s paid places (H-3)"),
    ),
    (
        r"played less than (?P<share>.+) of the match \(H-9\)",
        _("played less than %(share)s of the match (H-9)"),
    ),
    (
        r"played less than (?P<share>.+) \(rule 6, H-9\)",
        _("played less than %(share)s (rule 6, H-9)"),
    ),
    (
        r"bands by field size: (?P<bands>.+)",
        _("bands by field size: %(bands)s"),
    ),
    (
        r"a match of (?P<boards>\d+) boards is not scored per win: it needs (?P<need>\d+) \(H-5\)",
        _("a match of %(boards)s boards is not scored per win: it needs %(need)s (H-5)"),
    ),
    (
        r"field below the minimum: (?P<n>\d+) (?P<noun>\w+) took part, an? (?P<form>\w+) tournament needs at least "
        r"(?P<minimum>\d+) \w+ to score \(rule 5, H-10\); nothing is awarded",
        _(
            "field below the minimum: %(n)s %(noun)s took part, a tournament of %(form)s needs at least "
            "%(minimum)s %(noun)s to score (rule 5, H-10); nothing is awarded"
        ),
    ),
]
_COMPILED = [(re.compile(pattern), text) for pattern, text in _SENTENCES]


def translated(sentence: str) -> str:
    """``sentence`` in the active language: one of the engine's fixed words or sentences, or one of the known
    forms with its values carried over; else as written (a form always as the engine wrote it in English)."""
    if sentence in _WORDS:
        return str(_WORDS[sentence])
    if (get_language() or "en").startswith("en"):
        return sentence
    for pattern, text in _COMPILED:
        match = pattern.fullmatch(sentence)
        if match:
            values = {key: str(_WORDS.get(value, value)) for key, value in match.groupdict().items()}
            return str(text) % values
    return sentence


#: :func:`translated` at the moment the text is shown (an upload's issues are built before the page).
translated_lazy = lazy(translated, str)
