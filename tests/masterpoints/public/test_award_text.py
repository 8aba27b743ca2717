"""Issue 18 "Players understand their points": every award explained in one or two sentences, in the
reader's language, from the explanation the ledger stores (masterpoints.award_text)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format, get_format

from federation.models import Player
from masterpoints import award_text
from masterpoints.award_text import award_block, award_sentences, explanation_block, hbs_formula_lines, ledger_block
from masterpoints.models import Award
from masterpoints.numbers import decimal_separator, short_day
from masterpoints.public.ledger import PlayerLedger
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player, pairs_from_numbers, usebio_pairs

#: The stored explanation of a club evening, 12 pairs, 24 boards (§ 406B1, vector D-P1), as the ledger has it.
DBF_SCALE = {
    "rules": ["§ 406B1", "§ 405B1", "§ 405B6c", "§ 406B3", "§ 406C"],
    "inputs": {
        "form": "pairs", "category": "BP", "organizer": "club", "N": "12", "boards": "24", "D_raw": "12",
        "n2": "0", "D": "12", "p_max": "4", "M": "2", "n1": "1", "r": "0", "m_post": "1", "MPmax": "24",
        "Q": "0.666667",
    },
}  # fmt: skip
DBF_HEAD = (
    "12 pairs, 24 boards, organised by a club: the full scale gives the winner 24 BP and each place below ⅔ of "
    "the one above, down to place 4 (§ 406B); every award is rounded up (§ 406C)."
)
DBF_HEAD_DA = (
    "12 par, 24 spil, arrangeret af en klub: den fulde skala giver vinderen 24 BP og hver placering under ⅔ af "
    "den ovenover, ned til plads 4 (§ 406B); hver tildeling rundes op (§ 406C)."
)
#: A team match of 16 boards, won (§ 406A1–2, § 411C), as the engine explains it for one player.
DBF_MATCH = {
    "rules": ["§ 406A1", "§ 406A2", "§ 411C", "§ 405A3", "§ 405A1", "§ 406C"],
    "inputs": {
        "category": "BP", "M": "16", "boards": "16", "N_ref": "24", "n1": "2/3", "result": "win", "w": "1",
        "share": "1", "boards_played": "16/16",
    },
}  # fmt: skip
DBF_MATCH_HEAD = (
    "A team match of 16 boards (win): it is worth 16 BP, times n1 = ⅔ for the boards (§ 405A3) and w = 1 for "
    "the result (§ 411C), rounded up."
)
DBF_MATCH_HEAD_DA = (
    "En holdkamp på 16 spil (sejr): den er værd 16 BP, gange n1 = ⅔ for spillene (§ 405A3) og w = 1 for "
    "resultatet (§ 411C), rundet op."
)

#: HBS, 12 pairs, 24 boards, strength 1 (HBS formula, H-3, H-6), as the engine explains one entry.
HBS_BASE = {
    "form": "pairs", "N": "12", "T": "1", "S": "1", "D": "24", "B": "9.2000", "n": "6", "s_1": "3.149883",
}  # fmt: skip
HBS_HEAD = (
    "12 pairs, 24 boards, strength 1: the HBS formula gives the winner 9.2 black points for this field, these boards "
    "and this strength; each place below gets less, on a curve that falls fastest at the top, down to place 6; "
    "every award is rounded up to a whole point."
)
HBS_HEAD_HR = (
    "12 parova, 24 ploče, jakost 1: formula HBS-a daje pobjedniku 9,2 crnih poena za ovo polje, ove ploče i ovu "
    "jakost; svako niže mjesto dobiva manje, po krivulji koja najbrže pada pri vrhu, sve do mjesta 6; svaka se "
    "dodjela zaokružuje naviše na cijeli bod."
)
#: Under "details": the formula written out, then the weights of the places (issue 38).
HBS_FORMULAS = [
    "B = (3 + 12·1/5)·1·(1 + 24/12) − 7 = 9.2 black points",
    "P_k = B·s_k/s_1, s_k = ln((n + 1)/(k − 0.7)), n = 6 (H-3, H-6)",
]


def hbs(**inputs):
    return {"rules": ["HBS formula", "H-3", "H-6"], "inputs": {**HBS_BASE, **inputs}}


HBS_PLAIN = hbs(place="2", s_k="s_2 = 1.683546", P_k="4.9172", points="5")
HBS_TIE = hbs(
    place="3–4",
    s_k="s_3 = 1.113001, s_4 = 0.751988",
    P_k="P_3 = 3.2508, P_4 = 2.1964",
    tie="2 entries share places 3–4",
    share="2.7236",
    points="3",
)
#: Rule 8, H-5: a won match of 16 boards in a league, N = 2, T = 2, S = 1: B = (3 + 4/5)·1·(1 + 16/12) − 7.
HBS_WIN = {
    "rules": ["H-1", "H-5", "HBS formula", "H-6"],
    "inputs": {
        "kind": "black", "kinds from": "unlisted event default", "match": "r3", "result": "won", "N": "2",
        "T": "2", "S": "1", "D": "16", "B": "1.8667", "points": "2",
    },
}  # fmt: skip


def say(explanation, kind, amount, language="en", **award):
    with translation.override(language):
        return award_sentences(explanation, kind, amount, **award)


# --- DBf ------------------------------------------------------------------------------------------------


def test_dbf_a_plain_award_names_the_scale_and_the_place_406b():
    assert say({**DBF_SCALE, "inputs": {**DBF_SCALE["inputs"], "place": "2"}}, "BP", "16") == [
        DBF_HEAD,
        "You finished in place 2: 16 BP.",
    ]


def test_dbf_a_tie_shares_the_sum_of_the_places_405b3():
    assert say({**DBF_SCALE, "inputs": {**DBF_SCALE["inputs"], "tie": "2-3"}}, "BP", "14")[1] == (
        "You shared places 2–3: the tied entries share the sum of those places equally (§ 405B3): 14 BP."
    )


def test_dbf_half_quota_for_the_boards_and_a_row_say_how_they_change_the_scale_405b5_405b6c():
    inputs = {**DBF_SCALE["inputs"], "boards": "14", "n1": "0.5", "r": "-0.1", "place": "1"}
    assert say({**DBF_SCALE, "inputs": inputs}, "BP", "11")[0].endswith(
        "(§ 406B); with this number of boards it pays ½ of it (§ 405B6c); the row's strength changes it by -10 % "
        "(§ 405B5); every award is rounded up (§ 406C)."
    )


def test_dbf_a_half_quota_sanction_is_named_403b2():
    rules = ["§ 406B1", "§ 405B1", "quota: half (§ 403B2, § 433D2a, § 433E2)", "§ 406C"]
    inputs = {**DBF_SCALE["inputs"], "category": "SP", "n1": "1/2", "MPmax": "12", "place": "1"}
    assert say({"rules": rules, "inputs": inputs}, "SP", "6.0")[0].endswith(
        "a half-quota event pays ½ of it (§ 403B2, § 433D2a, § 433E2); every award is rounded up (§ 406C)."
    )


def test_dbf_a_team_bonus_names_b_k_and_the_player_s_eligibility_406a3_411d():
    bonus = {
        "rules": ["§ 406A3", "§ 412B", "§ 411D1", "§ 405A4", "§ 406C", "§ 411D"],
        "inputs": {
            "B": "10", "K": "7", "boards": "16", "n1": "2/3", "f_row": "1", "T": "8", "T_eff": "8", "p_max": "3",
            "place": "2", "boards_played": "70/112", "eligibility": "played at least half the team's boards (§ 411D)",
        },
    }  # fmt: skip
    assert say(bonus, "BP", "32") == [
        "Team bonus for the final placing among 8 teams: the winner gets B·K = 10·7 BP, times n1 = ⅔ and the row "
        "factor 1; place p gets 2/(p + 1) of that, rounded up, down to place 3 (§ 406A3, § 412B).",
        "You finished in place 2, played at least half the team's boards (§ 411D): 32 BP.",
    ]


def test_dbf_an_office_entry_says_the_office_entered_it_451a():
    rules = ["§ 432", *DBF_SCALE["rules"], "§ 451A", "D-Q33"]
    sentences = say({"rules": rules, "inputs": {**DBF_SCALE["inputs"], "place": "1"}}, "BP", "24")
    assert sentences == [
        DBF_HEAD,
        "You finished in place 1: 24 BP.",
        "The office entered this result from the director's report (§ 451A).",
    ]


def test_dbf_foreign_points_opening_balances_and_entries_by_hand_have_their_sentence_401b():
    foreign = {"rules": ["§ 401B"], "country": "SE", "foreign_kind": "SP", "foreign_units": 50, "result": "5.0"}
    assert say(foreign, "SP", "5.0", source="foreign", reason="§ 401B: 5.0 SP (SE)") == [
        "Points won abroad (SE, SP) converted to 5.0 SP (§ 401B).",
        "Reason given: § 401B: 5.0 SP (SE).",
    ]
    assert say({}, "BP", "30", source="manual", reason="entered by the office") == [
        "Entered by the office by hand: 30 BP.",
        "Reason given: entered by the office.",
    ]


def test_dbf_a_team_match_played_in_full_405a3_411c():
    assert say(DBF_MATCH, "BP", "11") == [DBF_MATCH_HEAD, "You get 11 BP."]


def test_dbf_partial_participation_in_a_team_match_gets_its_share_405a1():
    inputs = {**DBF_MATCH["inputs"], "share": "1/2", "boards_played": "8/16"}
    assert say({**DBF_MATCH, "inputs": inputs}, "BP", "6")[1] == (
        "You played 8/16 of the boards, so you get that share (§ 405A1): 6 BP."
    )


def test_dbf_a_correction_and_a_reversal_say_what_the_office_did():
    assert say({}, "BP", "-4", source="correction", reason="wrong board") == [
        "The office corrected the points by -4 BP.",
        "Reason given: wrong board.",
    ]
    assert say({}, "BP", "-24", source="reversal", reason="re-upload")[0] == (
        "This entry cancels the earlier award in full, so its points are taken back: -24 BP."
    )


def test_the_block_escapes_what_the_office_and_the_file_wrote():
    # A reason is the office's free text and an input may hold a file's words (a team name): the block
    # every page shows escapes both, in the sentence and in the details table.
    block = explanation_block(
        {"rules": ["§ 406B"], "inputs": {"team": "<b>Hold</b> & Co"}},
        "BP",
        "-4",
        source="correction",
        reason="<i>x</i>",
    )
    assert "Reason given: &lt;i&gt;x&lt;/i&gt;." in block
    assert "&lt;b&gt;Hold&lt;/b&gt; &amp; Co" in block
    assert "<i>" not in block and "<b>" not in block


def test_dbf_sentences_in_danish():
    """Pending the lead's catalogue (translations-explain.json)."""
    plain = {**DBF_SCALE, "inputs": {**DBF_SCALE["inputs"], "place": "2"}}
    assert say(plain, "BP", "16", "da") == [DBF_HEAD_DA, "Du sluttede på plads 2: 16 BP."]
    tie = {**DBF_SCALE, "inputs": {**DBF_SCALE["inputs"], "tie": "2-3"}}
    assert say(tie, "BP", "14", "da")[1] == (
        "Du delte pladserne 2–3: de delte deltagere deler summen af de pladser ligeligt (§ 405B3): 14 BP."
    )
    assert say(DBF_MATCH, "BP", "11", "da") == [DBF_MATCH_HEAD_DA, "Du får 11 BP."]
    partial = {**DBF_MATCH, "inputs": {**DBF_MATCH["inputs"], "share": "1/2", "boards_played": "8/16"}}
    assert say(partial, "BP", "6", "da")[1] == "Du spillede 8/16 af spillene, så du får den andel (§ 405A1): 6 BP."
    assert say({}, "SP", "-0.4", "da", source="correction", reason="forkert spil") == [
        "Kontoret rettede pointene med -0,4 SP.",
        "Angivet begrundelse: forkert spil.",
    ]


# --- HBS ------------------------------------------------------------------------------------------------


def test_hbs_a_plain_award_writes_the_formula_out_hbs_formula_h6():
    """Issue 38: in words like DBf's, no logarithm and no reading ids; the formula is under "details"."""
    assert say(HBS_PLAIN, "black", "5") == [
        HBS_HEAD,
        "You finished in place 2 (4.9172 before rounding up): 5 black points.",
    ]
    assert hbs_formula_lines(HBS_PLAIN["inputs"], "black") == HBS_FORMULAS
    with translation.override("en"):
        block = str(explanation_block(HBS_PLAIN, "black", "5"))
    sentence, details = block.split("<details", 1)
    assert "ln(" not in sentence and "H-3" not in sentence and "ln((n + 1)" in details


def test_hbs_a_tie_shares_the_unrounded_places_h7():
    assert say(HBS_TIE, "black", "3")[1] == (
        "You shared places 3–4: the tied entries share the sum of those places equally, 2.7236 each before rounding "
        "up: 3 black points."
    )


def test_hbs_partial_participation_names_the_boards_played_h9():
    partial = {**HBS_PLAIN, "inputs": {**HBS_PLAIN["inputs"], "boards played": "8 of 24 (33.33 %)"}}
    assert say(partial, "black", "5")[1] == (
        "You finished in place 2 (4.9172 before rounding up), you played 8/24 boards (rule 6): 5 black points."
    )


def test_hbs_a_won_league_match_scores_like_first_of_two_teams_h5():
    assert say(HBS_WIN, "black", "2") == [
        "Match r3 won: each won match scores like first place of two teams over its boards, 1.8667 black points "
        "(rule 8).",
        "You get 2 black points.",
    ]


def test_hbs_b_from_another_rule_set_is_named_without_a_formula_it_would_not_give():
    other = hbs(B="12.5000", place="1", P_k="12.5000", s_k="s_1 = 3.149883")
    assert say(other, "black", "13")[0].startswith(
        "12 pairs, 24 boards, strength 1: the HBS formula gives the winner 12.5"
    )
    assert hbs_formula_lines(other["inputs"], "black")[0] == "B = 12.5 black points"


def test_hbs_an_opening_balance_transition_rule_1():
    assert say({}, "black", "120", source="transition", reason="old list, line 4") == [
        "Opening balance carried over into the new system: 120 black points.",
        "Reason given: old list, line 4.",
    ]


def test_hbs_a_correction_by_the_commission_transition_rule_6():
    assert say({}, "red", "3", source="correction", reason="missing result") == [
        "The office corrected the points by 3 red points.",
        "Reason given: missing result.",
    ]
    assert say({}, "red", "1", source="correction", reason="r")[0] == "The office corrected the points by 1 red point."


def test_hbs_sentences_in_croatian():
    """Croatian sentences, the points in the number's plural form (1 poen, 2–4 poena, 5 poena: 5 crnih poena)."""
    assert say(HBS_PLAIN, "black", "5", "hr") == [
        HBS_HEAD_HR,
        "Završili ste na mjestu 2 (4,9172 prije zaokruživanja): 5 crnih poena.",
    ]
    assert say(HBS_TIE, "black", "3", "hr")[1] == (
        "Podijelili ste mjesta 3–4: izjednačeni sudionici dijele zbroj tih mjesta na jednake dijelove, 2,7236 "
        "svakome prije zaokruživanja: 3 crna poena."
    )
    assert say({}, "red", "3", "hr", source="correction", reason="nedostaje rezultat") == [
        "Ured je ispravio bodove za 3 crvena poena.",
        "Navedeni razlog: nedostaje rezultat.",
    ]
    assert say({}, "black", "1", "hr", source="correction", reason="r")[0] == "Ured je ispravio bodove za 1 crni poen."


# --- one text on four pages -----------------------------------------------------------------------------

NUMBERS = [str(60001 + i) for i in range(24)]


@pytest.fixture
def confirmed(world, personas):
    for number in NUMBERS:
        make_player(world.dbf, number, club=world.club_a)
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=datetime.date(2025, 3, 4),
        name="Tirsdag",
        sections=[pairs_from_numbers(NUMBERS)],
        boards=24,
    )
    upload = results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="r.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
    )
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    return upload, tournament


def test_the_four_pages_show_the_same_sentence_for_the_same_award_issue_18(client, personas, confirmed):
    upload, tournament = confirmed
    winner = Award.objects.get(player=Player.objects.get(number=NUMBERS[0]))
    sentence = f"{DBF_HEAD} You finished in place {winner.place_first}: {winner.amount} BP."
    player_page = client.get(reverse("public:player", args=["dbf", NUMBERS[0]])).content.decode()
    tournament_page = client.get(tournament.get_absolute_url()).content.decode()
    calculator_page = client.get(
        reverse("public:calculator"),
        {"calc": "dbf", "dbf-form": "pairs", "dbf-category": "BP", "dbf-organizer": "club", "dbf-participants": 12,
         "dbf-boards": 24, "dbf-rows": 1, "dbf-row": 1, "dbf-split": "random"},
    ).content.decode()  # fmt: skip
    client.force_login(personas.director_a)
    preview_page = client.get(reverse("uploads:preview", args=[upload.pk])).content.decode()
    for page in (player_page, preview_page):
        assert f'<p class="why-sentence">{sentence}</p>' in page
        assert '<details class="why"><summary>details</summary><p>Rules: § 406B1' in page
    # Issue 38: the tournament's page is read by everyone, so it names each line's amount, not "You finished…";
    # the same variables are behind its "details".
    assert "You finished" not in tournament_page
    assert f'<p class="why-sentence">{winner.amount} BP</p>' in tournament_page
    assert '<details class="why"><summary>details</summary><p>Rules: § 406B1' in tournament_page
    assert f'<p class="why-sentence">{DBF_HEAD}</p>' in calculator_page  # a scale, no award: no place


def test_a_ledger_row_reads_its_explanation_as_the_award_stores_it_issue_16(confirmed):
    # The ledger reads the explanation's two parts as their stored JSON text and decodes them when asked.
    paid = Player.objects.filter(number__in=NUMBERS, awards__isnull=False).distinct()
    assert paid.count() == 8  # 12 pairs, places 1 to 4 paid (the scale's p_max)
    for player in paid:
        rows = PlayerLedger(player)[0:25]
        awards = {award.pk: award for award in Award.objects.filter(player=player).with_explanations()}
        assert rows and {row.pk: row.explanation_data for row in rows} == {
            pk: award.explanation_data for pk, award in awards.items()
        }
        assert all(ledger_block(row) == award_block(awards[row.pk]) for row in rows)


def test_a_ledger_row_s_words_are_built_once_per_language_and_stored_content_issue_16(confirmed, monkeypatch):
    # A pair's two players share one stored explanation (the same place, masterpoints.explanation_store):
    # the words of the second are the kept words of the first, and another language builds its own.
    built = []
    monkeypatch.setattr(award_text, "explanation_block", lambda *args, **kwargs: built.append(args) or "words")
    award_text._kept_block.cache_clear()
    first, partner = (PlayerLedger(Player.objects.get(number=number))[0:1][0] for number in NUMBERS[:2])
    assert (first.scale_text, first.own_text, first.units) == (partner.scale_text, partner.own_text, partner.units)
    with translation.override("en"):
        assert ledger_block(first) == ledger_block(partner) == "words"
    with translation.override("da"):
        ledger_block(partner)
    assert len(built) == 2
    award_text._kept_block.cache_clear()


def test_days_and_decimal_separators_are_the_reader_s_locale_whichever_language_came_first_issue_18():
    day = datetime.date(2025, 3, 4)
    for language in ("en", "da", "hr", "en"):
        with translation.override(language):
            assert short_day(day) == date_format(day, "SHORT_DATE_FORMAT")
            assert decimal_separator() == get_format("DECIMAL_SEPARATOR")
    with translation.override("da"):
        assert (short_day(day), decimal_separator()) == ("04.03.2025", ",")
