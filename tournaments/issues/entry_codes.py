"""The second half of the file's codes: entries, players, places, groups, matches, PBN and CSV tables.

Merged into :data:`.file_codes.FILE_CODES` (whose docstring is the one table of all codes); split off only to
keep each module short.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .severity import E, I, Severity, W

#: code -> variant -> (severity, message template with named placeholders), in the order of the table
ENTRY_CODES: dict[str, dict[str, tuple[Severity, Promise]]] = {
    "NO_ENTRIES": {"": (E, _("The file has no results: no pairs, teams or players."))},
    "ENTRY_DUPLICATE": {
        "": (E, _("Entry %(entry)s appears more than once in %(group)s; only the first one was read."))
    },
    "ENTRY_NO_PLAYERS": {"": (E, _("Entry %(entry)s has no players."))},
    "ENTRY_NUMBER_MISSING": {"": (W, _("An entry has no number; it was given number %(entry)s by its position."))},
    "ENTRY_PHANTOM": {
        "": (I, _("Entry %(entry)s is a phantom or sit-out (%(reason)s) and is not counted in the field."))
    },
    "ENTRIES_UNRANKED": {
        "": (
            W,
            _(
                'The file does not rank %(count)s entries (rank "-"): %(entries)s. They were left out of the '
                "ranking and the field, so they get no points."
            ),
        ),
        "moved": (
            W,
            _(
                'The file does not rank %(count)s entries (rank "-"): %(entries)s. They were left out of the '
                "ranking and the field, so they get no points; the entries placed below them moved up, since "
                "the file had counted them in its places."
            ),
        ),
    },
    "PLAYER_COUNT_UNUSUAL": {
        "": (
            W,
            _(
                "Entry %(entry)s has %(count)s players; a %(form)s entry normally has %(expected)s. Check "
                "substitutes and missing players."
            ),
        )
    },
    "NAME_MISSING": {"": (W, _("A player of entry %(entry)s has no name."))},
    "ID_MISSING": {
        "": (
            W,
            _(
                "%(name)s (entry %(entry)s) has no membership number. Match the player to a member or mark "
                "them as a guest."
            ),
        )
    },
    "ID_DUPLICATE_IN_EVENT": {
        "": (
            E,
            _(
                "Membership number %(national_id)s appears twice: %(name)s in entry %(entry)s and "
                "%(other_name)s in entry %(other_entry)s. A player can take part only once in an event."
            ),
        )
    },
    "SCORE_UNPARSEABLE": {
        "": (E, _("%(value)s is not a number (%(field)s of entry %(entry)s).")),
        "field": (E, _("%(value)s is not a number (%(field)s).")),
        "boards": (E, _("%(value)s is not a number of boards from 1 to %(limit)s (%(field)s of entry %(entry)s).")),
    },
    "PLACE_UNPARSEABLE": {
        "": (E, _("The place %(value)s of entry %(entry)s is not a number (a tie is written 3 or 3=)."))
    },
    "PLACE_MISSING": {
        "": (
            W,
            _(
                "The ranking of %(group)s has no places; they were computed from the %(basis)s (equal results "
                "share a place). Check the ranking."
            ),
        ),
        "partial": (E, _("Entry %(entry)s has no place, while other entries in %(group)s have one.")),
        "no_score": (E, _("The ranking of %(group)s has neither places nor scores, so it cannot be computed.")),
    },
    "PLACE_SEQUENCE_INCONSISTENT": {
        "": (
            E,
            _(
                "The places in %(group)s do not form a ranking: after %(after)s we expected place %(expected)s "
                "but found %(found)s. Tied entries share the best place and the next place skips (1, 2, 3, 3, 5)."
            ),
        )
    },
    "PLACES_CONTRADICT_SCORES": {
        "": (
            E,
            _(
                "Entry %(entry)s is placed %(place)s with %(score)s, but entry %(other_entry)s is placed higher "
                "(%(other_place)s) with less (%(other_score)s). Places and scores contradict each other."
            ),
        )
    },
    "TIE_SCORES_DIFFER": {
        "": (
            W,
            _(
                "Entries %(entry)s and %(other_entry)s share place %(place)s but have different results "
                "(%(score)s and %(other_score)s)."
            ),
        )
    },
    "TIE_NOT_SHARED": {
        "": (
            W,
            _(
                "Entries %(entry)s and %(other_entry)s have the same result (%(score)s) but different places "
                "(%(place)s and %(other_place)s). Check whether the tie was broken on purpose."
            ),
        )
    },
    "TIE_MARK_UNMATCHED": {
        "": (W, _("Entry %(entry)s is marked as tied (%(value)s), but no other entry in %(group)s has that place."))
    },
    "GROUP_AMBIGUOUS": {
        "": (
            W,
            _(
                "It is not clear whether the sections are ranked separately or together; they were ranked "
                "separately. Check the groups."
            ),
        ),
        "no_direction": (
            W,
            _(
                "The file says North-South and East-West are ranked separately, but the entries have no "
                "direction, so they were ranked as one field. Check the groups."
            ),
        ),
        "split_by_places": (
            W,
            _(
                "The file says there is one winner, but the places restart for North-South and East-West, so "
                "they were ranked separately. Check the groups."
            ),
        ),
        "joined_by_places": (
            W,
            _(
                "The file says North-South and East-West are ranked separately, but the places run across both, "
                "so they were ranked as one field. Check the groups."
            ),
        ),
        "tables": (
            W,
            _(
                "The file has %(count)s ranking tables without section names; each was read as its own group. "
                "Check the groups."
            ),
        ),
    },
    "GROUPS_DECIDED": {
        "": (
            I,
            _(
                "The %(count)s sections (%(names)s) are ranked together, across the sections (%(groups)s "
                "entries): the places run across the sections, so the whole field counts."
            ),
        ),
        "per_section": (
            I,
            _(
                "The %(count)s sections (%(names)s) are ranked separately (%(groups)s entries): each section's "
                "places form a ranking of their own."
            ),
        ),
        "per_table": (
            I,
            _(
                "The %(count)s sections (%(names)s) are ranked separately (%(groups)s entries): the file has a "
                "ranking table for each."
            ),
        ),
        "across_centres": (
            I,
            _("The ranking runs across the %(count)s centres (%(names)s): it is one field of %(size)s entries."),
        ),
        "per_centre": (
            I,
            _(
                "Each of the %(count)s centres (%(names)s) is ranked on its own (%(groups)s entries): the places "
                "start again in each centre."
            ),
        ),
    },
    "HANDICAP_RANKED_ON_SCRATCH": {
        "": (
            W,
            _(
                "This is a handicap event. The ranking of %(group)s shown here is computed from the scores "
                "without handicap (the nominal result); %(changed)s entries have a different place than in the "
                "file, whose places are kept as the handicap result. The points follow this ranking unless a line "
                "below says otherwise."
            ),
        )
    },
    "BOARDS_DECLARED_DIFFER": {
        "": (
            W,
            _(
                "The file says %(declared)s boards were played, but it has results for %(counted)s boards. "
                "Check the number of boards."
            ),
        ),
        "nrboards": (
            W,
            _(
                "The ranking's NrBoards says up to %(declared)s boards were played, but the file has score tables "
                "for %(counted)s boards. The preview says which number the points count. Check the number of "
                "boards."
            ),
        ),
    },
    "TRAVELLER_NUMBERS_UNKNOWN": {
        "": (
            W,
            _(
                "The travellers name %(count)s numbers that are not in the results (%(numbers)s), so the boards "
                "played were counted only for the others. Check the movement in the scoring program."
            ),
        )
    },
    "MATCH_TEAM_UNKNOWN": {"": (E, _("A match in round %(round)s names team %(team)s, which is not in the results."))},
    "MATCH_DUPLICATE": {
        "": (E, _("Team %(team)s plays more than one match in round %(round)s.")),
        "boards": (
            E,
            _(
                "The match of teams %(team)s and %(opponent)s on boards %(boards)s is listed twice with different "
                "scores (%(score)s and %(other_score)s)."
            ),
        ),
    },
    "NO_RANKING_TABLE": {
        "": (
            E,
            _(
                "This PBN file has no ranking table (TotalScoreTable), so places and the field size cannot be "
                "read. Export the final ranking from your scoring program as USEBIO XML, or as PBN with a "
                "TotalScoreTable."
            ),
        ),
        "hand_records": (
            E,
            _(
                "This PBN file holds only hand records (%(games)s deals) and no results: it has no ranking "
                "table (TotalScoreTable). Export the final ranking from your scoring program as USEBIO XML, or "
                "as PBN with a TotalScoreTable."
            ),
        ),
        "table_results": (
            E,
            _(
                "This PBN file holds %(games)s single table results but no ranking table (TotalScoreTable), so "
                "places and the field size cannot be read. Export the final ranking from your scoring program "
                "as USEBIO XML, or as PBN with a TotalScoreTable."
            ),
        ),
    },
    "PBN_ROW_MALFORMED": {
        "": (
            E,
            _("This row of the ranking table has %(found)s values, but the header has %(expected)s columns."),
        ),
        "ids": (
            E,
            _("This row of the ranking table has %(names)s names but %(ids)s membership numbers."),
        ),
    },
    "PBN_TRUNCATED": {
        "": (
            E,
            _(
                "The file ends in the middle of this line, without the line break every PBN line ends with: it was "
                "cut off (a transfer or an export stopped), so values and rows may be missing. Export the file "
                "again from the scoring program and upload it whole."
            ),
        ),
    },
    "PBN_ID_COLUMN_USED": {"": (I, _("Membership numbers were read from the column %(column)s."))},
    "PBN_ID_COLUMN_MISSING": {
        "": (
            W,
            _(
                "The ranking table has no column with membership numbers (for example MemberID), so every "
                "player has to be matched to a member by name."
            ),
        )
    },
    "PBN_TABLE_REPEATED": {"": (I, _("This ranking table repeats rows of an earlier table and was not used."))},
    "PBN_TABLE_COMMENT": {
        "": (
            W,
            _(
                "The ranking table has the comment %(comment)s. Check that it lists the whole field: the field "
                "size matters for masterpoints."
            ),
        )
    },
    "CSV_COLUMN_MISSING": {"": (E, _("The %(table)s table has no column %(column)s."))},
    "CSV_VALUE_INVALID": {"": (E, _("%(value)s is not a valid value for %(column)s (%(expected)s)."))},
    "CSV_ROW_IGNORED": {"": (W, _("This row is neither an event field nor part of a table, so it was not read."))},
    "CSV_COLUMN_UNKNOWN": {"": (I, _("These columns are not in the template and were not read: %(columns)s."))},
    "ISSUES_CAPPED": {
        "": (I, _("%(count)s more issues of the kind %(kind)s are not listed (the first %(shown)s are)."))
    },
}
