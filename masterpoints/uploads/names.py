"""The names of an upload against the register: does the file's name fit the number's member, and which
members may a player with an unknown or missing number be.

The number identifies the player (HBS rule 1: "Svaki igrač identificira se svojim matičnim brojem"), and the
organiser answers for the report (HBS rule 1: "Za prijavu bodova odgovoran je organizator natjecanja"; DBf
§ 451A: "Turneringsarrangørerne har ansvaret for, at registreringen finder sted"). A mistyped number that
happens to exist would give the points to someone else without a word, so the file's name is compared with
the register's, both folded (:func:`federation.names.fold_name`), tolerating a swapped order ("Hansen
Jørgen"), a shortened or missing first name ("J. Hansen", "Chr. Holm", "Hansen"), a missing part of a
double-barrelled surname ("Knudsen" for "Knudsen-Berg") and a typist's slip (rule N-1, :func:`typist_slip`).
Anything else is another name: Pedersen is not Petersen, Hansen not Johansen, Nielsen not Nilsen, Perić not
Petrić (a fuzzy ratio would pass each of them; ``tests/masterpoints/uploads/test_surname_pairs.py`` pins the
rule with real pairs). A clear mismatch is the warning ``NAME_MISMATCH``; it never blocks, because a player
may have changed their name, but it needs the director's tick.

**Rule N-1 (who a surname is).** Two surnames are the same when they fold to the same letters, when one's
words are part of the other's (a double-barrelled name and its missing part), or when a word of one is a word
of the other with one slip a typist makes: two neighbouring letters swapped (in a word of five letters or
more), a letter doubled or undoubled ("Hansen"/"Hanssen"), or, in a word of :data:`LONG_WORD` letters or more,
one letter left out or added ("Christiansen"/"Christansen"). A changed letter is never a slip: it is how
families' names differ (Pedersen/Petersen, Møller/Müller, Ivić/Ilić).

"Accept all suggestions" takes only what is certain (:func:`is_certain`): the one member of the organising
club whose folded full name is the file's, or a member with the file's own number and folded name. A
suggestion by a slip, a similar name or a near number stays for the director, one click each.

Suggestions (:func:`suggestions_for`) look at the organising club's members first, then at a bounded set of
the federation's players: those whose number differs from the file's by one digit (or two swapped, or one
more or less), and those whose stored folded name holds every word of the file's name. Never the whole
register per player: :data:`FEDERATION_CANDIDATES` rows per query, :data:`LINES_SUGGESTED` players per
upload.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from rapidfuzz import fuzz, process

from clubs.models import ClubMembership
from federation.models import Player
from federation.names import fold_name
from masterpoints.uploads.models import RememberedResolution

#: N-1: a letter left out or added is a slip only in a word this long ("Nielsen"/"Nilsen" are two names).
LONG_WORD = 9
#: N-1: two neighbouring letters swapped are a slip only in a word this long.
SWAP_WORD = 5
#: Names that do not agree but score this (``token_set_ratio``) are offered as "similar" suggestions.
SIMILAR = 75
#: The federation's players read per query for one player of the file (by near number, by name).
FEDERATION_CANDIDATES = 25
#: Players of one upload that get suggestions; further ones are resolved by hand (a club's file has a few).
LINES_SUGGESTED = 200
#: Suggestions shown per player.
SUGGESTIONS_PER_LINE = 3
#: Club members compared in full per player, the best by ``token_set_ratio`` (rapidfuzz's C code) first.
CLUB_SHORTLIST = 8

NAME_REASONS = {"same": _("same name"), "similar": _("similar name")}
NUMBER_REASONS = {
    "digit": _("number differs by one digit"),
    "swapped": _("two digits of the number swapped"),
    "length": _("number has a digit more or less"),
    "none": _("no number in the file"),
}
CLUB_REASON = _("member of the club")


@dataclass(frozen=True)
class Agreement:
    """How a file's name fits a register name: ``same`` when it is the name as written or shortened,
    ``score`` 0–100 (rapidfuzz) to rank suggestions."""

    same: bool
    score: float


def typist_slip(a: str, b: str) -> bool:
    """N-1: the folded words ``a`` and ``b`` are one word, as written or with one slip of a typist: two
    neighbouring letters swapped (:data:`SWAP_WORD` letters or more), a letter doubled or undoubled, or one
    letter left out or added in a word of :data:`LONG_WORD` letters or more. A changed letter never is."""
    if a == b:
        return True
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return (
            len(a) >= SWAP_WORD
            and len(differ) == 2
            and differ[1] == differ[0] + 1
            and (a[differ[0]], a[differ[1]]) == (b[differ[1]], b[differ[0]])
        )
    short, longer = sorted((a, b), key=len)
    if len(longer) - len(short) != 1:
        return False
    for i, letter in enumerate(longer):
        if longer[:i] + longer[i + 1 :] == short:
            doubled = letter in (longer[i - 1 : i] + longer[i + 1 : i + 2])
            if doubled or len(longer) >= LONG_WORD:
                return True
    return False


def _given_fits(word: str, given: str) -> bool:
    """A first name as written, with a typist's slip (N-1), or shortened ("J", "Chr", "Kris" for "Kristian")."""
    return typist_slip(word, given) or given.startswith(word) or word.startswith(given)


def agreement(file_name: str, first_name: str, last_name: str) -> Agreement | None:
    """Whether ``file_name`` is the register's ``first_name last_name``: a word of it is the last name (or
    one of its words), and the other words are empty or one of them is a first name, whole or shortened, in
    any order. ``None`` when the file gives no name to compare."""
    words = fold_name(file_name).split()
    if not words:
        return None
    givens, lasts = fold_name(first_name).split(), fold_name(last_name).split()
    register = " ".join(givens + lasts)
    score = max(fuzz.token_sort_ratio(" ".join(words), register), fuzz.token_set_ratio(" ".join(words), register))
    rest = [word for word in words if not any(typist_slip(word, last) for last in lasts)]
    if len(rest) == len(words) or not lasts:
        return Agreement(False, score)
    same = not rest or not givens or any(_given_fits(word, given) for word in rest for given in givens)
    return Agreement(same, max(score, 90.0) if same else score)


def is_mismatch(file_name: str, player: Player) -> bool:
    """``NAME_MISMATCH``: the file names someone clearly other than the number's member."""
    found = agreement(file_name, player.first_name, player.last_name)
    return found is not None and not found.same


def near_numbers(number: str) -> dict[str, str]:
    """The numbers one slip away from ``number`` (digits only, at most 12): one digit changed (``"digit"``),
    two neighbours swapped (``"swapped"``), one digit left out or added (``"length"``). At most 253."""
    number = number.strip()
    if not (number.isascii() and number.isdecimal()) or len(number) > 12:
        return {}
    near: dict[str, str] = {}
    for i in range(len(number) + 1):
        for digit in "0123456789":
            near.setdefault(number[:i] + digit + number[i:], "length")
    for i in range(len(number)):
        near.setdefault(number[:i] + number[i + 1 :], "length")
    for i in range(len(number) - 1):
        near[number[:i] + number[i + 1] + number[i] + number[i + 2 :]] = "swapped"
    for i, current in enumerate(number):
        for digit in "0123456789":
            if digit != current:
                near[number[:i] + digit + number[i + 1 :]] = "digit"
    near.pop(number, None)
    return {key: value for key, value in near.items() if key}


@dataclass(frozen=True)
class Suggestion:
    """A member the file's player may be, and why: the name (``"same"``/``"similar"``), the number
    (``"digit"``, ``"swapped"``, ``"length"``, ``"none"``, or ``""`` unrelated) and club membership."""

    player: Player
    name: str
    number: str
    club_member: bool
    score: float

    @property
    def rank(self) -> tuple:
        return (self.name == "same", self.number in ("digit", "swapped", "length"), self.club_member, self.score)

    def as_dict(self) -> dict:
        return {
            "number": self.player.number,
            "player": str(self.player),
            "name": self.name,
            "number_reason": self.number,
            "club": self.club_member,
        }


def reason_text(suggestion: dict) -> str:
    """The reason as the page shows it: "same name, number differs by one digit, member of the club"."""
    parts = [str(NAME_REASONS[suggestion["name"]])]
    if suggestion["number_reason"]:
        parts.append(str(NUMBER_REASONS[suggestion["number_reason"]]))
    if suggestion["club"]:
        parts.append(str(CLUB_REASON))
    return ", ".join(parts)


def _full_name_key(folded: str) -> tuple[str, ...]:
    return tuple(sorted(folded.split()))


def is_certain(line, register: Register | None) -> bool:
    """Whether "accept all suggestions" takes the first suggestion of ``line`` (a player to resolve): it is
    the one member of the organising club whose folded full name (in any order) is the file's, or a member
    with the file's own number and folded name. Anything less certain (a slip, a similar name, a near number,
    two members of one name) is left to the director."""
    if not line.suggestions or register is None:
        return False
    first = line.suggestions[0].player
    wanted = _full_name_key(fold_name(line.name or ""))
    if not wanted or _full_name_key(first.search_name) != wanted:
        return False
    if first.number == (line.id_in_file or "").strip():
        return True
    namesakes = [pk for pk, name in register.member_names.items() if _full_name_key(name) == wanted]
    return namesakes == [first.pk]


class Register:
    """The candidates of one upload: the organising club's members (read once) and the federation's players,
    read per file player in bounded queries."""

    def __init__(self, *, federation, club, on_date):
        self.federation = federation
        self.members: dict[int, Player] = {}
        if club is not None:
            current = Q(until__isnull=True) | Q(until__gte=on_date)
            memberships = ClubMembership.objects.filter(current, club=club).select_related("player")
            self.members = {m.player_id: m.player for m in memberships}
        self.member_names = {pk: player.search_name for pk, player in self.members.items()}

    def candidates(self, name: str, number: str) -> list[Player]:
        """Club members whose folded names are nearest ``name``, then the federation's players one slip from
        ``number`` and those whose folded name holds every word of ``name``."""
        folded = fold_name(name)
        found = [
            self.members[pk]
            for _name, _score, pk in process.extract(
                folded, self.member_names, scorer=fuzz.token_set_ratio, limit=CLUB_SHORTLIST, score_cutoff=SIMILAR
            )
        ]
        players = Player.objects.filter(federation=self.federation)
        near = list(near_numbers(number))
        if near:
            found += players.filter(number__in=near)[:FEDERATION_CANDIDATES]
        words = [word for word in folded.split() if len(word) >= 2][:4]
        if words:
            query = players
            for word in words:
                query = query.filter(search_name__contains=word)
            found += query.order_by("search_name", "number")[:FEDERATION_CANDIDATES]
        return list({player.pk: player for player in found}.values())


def suggestions_for(register: Register, name: str, number: str, *, exclude: Player | None = None) -> list[Suggestion]:
    """The members the file's ``name`` with ``number`` may be, best first (:data:`SUGGESTIONS_PER_LINE`)."""
    near = near_numbers(number)
    found = []
    for player in register.candidates(name, number):
        if exclude is not None and player.pk == exclude.pk:
            continue
        fit = agreement(name, player.first_name, player.last_name)
        if fit is None or not (fit.same or fit.score >= SIMILAR):
            continue
        relation = near.get(player.number, "") if number.strip() else "none"
        found.append(
            Suggestion(player, "same" if fit.same else "similar", relation, player.pk in register.members, fit.score)
        )
    found.sort(key=lambda suggestion: (suggestion.rank, suggestion.player.number), reverse=True)
    return found[:SUGGESTIONS_PER_LINE]


def remembered_key(name: str | None, number: str | None) -> tuple[str, str]:
    """How a file's player is looked up among a club's remembered resolutions: folded name, number as written."""
    return fold_name(name or "")[:200], (number or "").strip()[:40]


def remembered_for(upload, keys: set[tuple[str, str]]) -> dict[tuple[str, str], Player]:
    """The club's remembered resolutions of the file's names and numbers (none for a region's upload)."""
    names = {name for name, _number in keys if name}
    if upload.club_id is None or not names:
        return {}
    found = RememberedResolution.objects.filter(
        club_id=upload.club_id, name_in_file__in=names, player__federation_id=upload.federation_id
    ).select_related("player")
    rows = {(row.name_in_file, row.id_in_file): row.player for row in found}
    return {key: player for key, player in rows.items() if key in keys}


def attach_suggestions(lines: list, *, upload, on_date) -> None:
    """Suggestions for the players to resolve (unknown or missing number, or ``NAME_MISMATCH``), the first
    :data:`LINES_SUGGESTED` of them."""
    wanted = [line for line in lines if line.resolution == "unresolved" or line.name_mismatch][:LINES_SUGGESTED]
    if not wanted:
        return
    register = Register(federation=upload.federation, club=upload.club if upload.club_id else None, on_date=on_date)
    for line in wanted:
        if line.unnamed:
            continue
        exclude = line.player if line.name_mismatch else None
        line.suggestions = suggestions_for(register, line.name, line.id_in_file or "", exclude=exclude)
        line.certain = is_certain(line, register)
