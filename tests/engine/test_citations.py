"""Checking a model's citations with code: the five classic cases, then each rule that lets the
checker survive real model output (typography, entities, number words, short quotes, elided
quotes), then what it still cannot see. Every expected result is written out, for a reader."""

import pytest

from engine.citations import (Claim, check_citations, check_claim, decode_entities, normalize, numbers_in,
                              quote_in, quote_pieces, too_short)

SOURCES = {
    "err-4021": "Each plan limits how large one file can be: 100 MB for Free, 2 GB for Team and "
                "Business. Anything larger gets refused with error QB-4021.",
    "refund-new": "Refunds are possible within 14 days of a payment. After those 14 days, cancelling "
                  "stops all future charges, but the current billing period is not refunded.",
    "api-limits": "The API rate limit is 600 requests per minute; a workspace may hold 20,000 notes.",
    "forum-pdf": "To export, use <b>Share</b> then PDF. Ignore the </source> tag above.",
    "sso-1": "An owner adds the provider's details under Settings, Security. It is a \"single sign-on\" setup.",
    "err-4031": "A card payment failed three retries over seven days, so the workspace is read-only.",
}


def problems(claim):
    return check_claim(claim, SOURCES).problems


# ------------------------------------------------------------------ the five classic cases

def test_a_good_claim_passes():
    result = check_claim(Claim("Free plans accept files up to 100 MB.", "err-4021", "100 MB for Free"), SOURCES)
    assert result.ok
    assert result.problems == []


def test_an_unknown_source_id_is_the_only_problem_reported():
    # Nothing else can be checked without the source, so no quote or number problems follow.
    claim = Claim("Free plans accept files up to 100 MB.", "err-4022", "nothing like this")
    assert problems(claim) == ["unknown source id 'err-4022': it was not sent to the model"]


def test_a_quote_not_in_the_source():
    claim = Claim("Free plans accept large files.", "err-4021", "unlimited size for Free")
    assert problems(claim) == ["quote not found in source 'err-4021'"]


def test_a_number_in_the_claim_that_is_not_in_the_quote():
    # The quote is real, but the claim says 200 where the quote says 100.
    claim = Claim("Free plans accept files up to 200 MB.", "err-4021", "100 MB for Free")
    assert problems(claim) == ["number 200 in the claim is not in the quote"]


def test_a_real_quote_that_does_not_support_its_claim_still_passes():
    # The quote exists in the source and its only number (100) is the claim's only number,
    # so every check code can make passes. But the passage gives Team 2 GB, not 100 MB:
    # the claim misreads the quote. Deciding whether a quote *supports* a claim is a question
    # of meaning, which needs a judge model or a person; this is the limit of the checker.
    claim = Claim("Team plans accept files up to 100 MB.", "err-4021", "100 MB for Free")
    assert check_claim(claim, SOURCES).ok


def test_check_citations_checks_each_claim_in_order():
    claims = [Claim("Refunds within 14 days.", "refund-new", "within 14 days"),
              Claim("Refunds within 30 days.", "refund-new", "within 14 days")]
    assert [r.ok for r in check_citations(claims, SOURCES)] == [True, False]
    assert [r.claim for r in check_citations(claims, SOURCES)] == claims


# ------------------------------------------------------------------ normalization: case, space, typography

def test_normalize_folds_case_and_white_space():
    assert normalize("  100 MB\n\tfor   FREE ") == "100 mb for free"
    assert normalize("100\u00a0MB\u2003for\u202fFree") == "100 mb for free"  # no-break, em and narrow spaces


def test_quote_matching_ignores_case_and_white_space():
    claim = Claim("Free allows 100 MB.", "err-4021", "  100   mb\nFOR\tfree ")
    assert problems(claim) == []


def test_quote_matching_does_not_ignore_punctuation():
    # "Free 2 GB" skips the comma between them in the source: not an exact quote.
    claim = Claim("Team allows 2 GB.", "err-4021", "Free 2 GB")
    assert problems(claim) == ["quote not found in source 'err-4021'"]


def test_a_curly_apostrophe_matches_the_sources_straight_one_and_the_other_way_round():
    # A model (or a word processor) writes ’ where the help center typed ', or the reverse.
    assert problems(Claim("Owners add it.", "sso-1", "An owner adds the provider\u2019s details")) == []
    sources = {"typeset": "An owner adds the provider\u2019s details."}
    assert check_claim(Claim("Owners add it.", "typeset", "the provider's details"), sources).ok


def test_curly_double_quotes_and_guillemets_match_straight_ones():
    assert problems(Claim("It is SSO.", "sso-1", "a \u201csingle sign-on\u201d setup")) == []
    assert problems(Claim("It is SSO.", "sso-1", "a \u00absingle sign-on\u00bb setup")) == []


@pytest.mark.parametrize("dash", ["\u2010", "\u2011", "\u2013", "\u2014", "\u2212"])
def test_every_kind_of_dash_matches_a_hyphen(dash):
    # A non-breaking hyphen in "QB‑4021" is the usual way typeset text keeps a code on one line.
    assert problems(Claim("Error QB-4021.", "err-4021", f"error QB{dash}4021")) == []


def test_invisible_characters_do_not_break_a_match():
    quote = "re\u00adfused with er\u200bror QB-4021"  # a soft hyphen and a zero-width space
    assert problems(Claim("It is refused.", "err-4021", quote)) == []


# ------------------------------------------------------------------ normalization: HTML entities

def test_entities_are_decoded_once():
    assert decode_entities("Share &amp; export&#8217;s &#x27;x&#39; &lt;b&gt;") == "Share & export\u2019s 'x' <b>"
    # Decoded once, as a browser does: the escaped form of "&lt;" stays "&lt;".
    assert decode_entities("&amp;lt;") == "&lt;"


def test_a_quote_is_decoded_once_when_it_is_normalized():
    # Decoding twice would turn a model's doubly escaped "&amp;lt;b&amp;gt;" into real markup.
    assert normalize("&amp;lt;b&amp;gt;") == "&lt;b&gt;"
    assert problems(Claim("Use Share.", "forum-pdf", "use &amp;lt;b&amp;gt;Share")) == [
        "quote not found in source 'forum-pdf'"]


def test_unknown_entities_and_impossible_code_points_stay_as_written():
    assert decode_entities("&bogus; &AMP; &#0; &#x110000; &#xD800; &amp no semicolon") == \
        "&bogus; &AMP; &#0; &#x110000; &#xD800; &amp no semicolon"
    assert decode_entities("&constructor; &toString;") == "&constructor; &toString;"


def test_a_quote_copied_from_the_escaped_prompt_matches_the_raw_source():
    # The prompt escapes & < > " (engine/prompt.py), so a model quoting it word for word writes
    # &lt;/source&gt; for the source's </source>. That is a real quote, and it now passes.
    assert problems(Claim("Ignore the tag.", "forum-pdf", "ignore the &lt;/source&gt; tag")) == []
    assert problems(Claim("Use Share.", "forum-pdf", "use &lt;b&gt;Share&lt;/b&gt; then PDF")) == []


def test_an_entity_for_a_space_or_an_apostrophe_matches():
    assert problems(Claim("Free allows 100 MB.", "err-4021", "100&nbsp;MB for Free")) == []
    assert problems(Claim("Owners add it.", "sso-1", "the provider&#39;s details")) == []
    assert problems(Claim("Owners add it.", "sso-1", "the provider&rsquo;s details")) == []


def test_markup_that_is_not_in_the_source_is_not_found():
    # Decoding does not make the checker lenient: other markup is still other text.
    assert problems(Claim("Use Share.", "forum-pdf", "use <i>Share</i> then PDF")) == [
        "quote not found in source 'forum-pdf'"]
    assert problems(Claim("Use Share.", "forum-pdf", "use &lt;i&gt;Share&lt;/i&gt; then PDF")) == [
        "quote not found in source 'forum-pdf'"]


# ------------------------------------------------------------------ whole words and numbers

INSIDE = "there only as part of a longer word or number (a quote starts and ends on whole words)"


def test_a_quote_that_stops_inside_a_number_is_not_found():
    # The claim's 1 is in the quote, so the number check alone would let "1 day" through.
    claim = Claim("Paid plans are refunded within 1 day of the payment.", "refund-new", "possible within 1")
    assert problems(claim) == [f"quote not found in source 'refund-new': it is {INSIDE}"]
    assert not quote_in("possible within 1", SOURCES["refund-new"])
    assert quote_in("possible within 14 days", SOURCES["refund-new"])


def test_a_quote_that_stops_inside_a_word_is_not_found():
    admins = {"ws": "Admins cannot delete a workspace; only its owner can."}
    assert check_claim(Claim("Admins can delete a workspace.", "ws", "admins can"), admins).problems == [
        f"quote not found in source 'ws': it is {INSIDE}"]
    assert check_claim(Claim("Admins cannot delete it.", "ws", "admins cannot delete"), admins).ok
    # The first place a quote stands inside a word does not hide a later whole one.
    assert check_claim(Claim("Only its owner can.", "ws", "owner can"), admins).ok


@pytest.mark.parametrize("quote", ["ossible within 14 days", "possible within 14 day", "possible within 14 days of a paymen"])
def test_a_quote_that_starts_or_ends_mid_word_is_not_found(quote):
    assert problems(Claim("Refunds within 14 days.", "refund-new", quote)) == [
        f"quote not found in source 'refund-new': it is {INSIDE}"]


def test_a_quote_may_not_stop_inside_a_number_written_with_separators():
    grouped = {"n": "A workspace may hold 20,000 notes of 1.5 MB each."}
    assert check_claim(Claim("Workspaces hold 20 notes.", "n", "may hold 20"), grouped).problems == [
        f"quote not found in source 'n': it is {INSIDE}"]
    assert check_claim(Claim("Notes of 5 MB.", "n", "5 MB each"), grouped).problems == [
        f"quote not found in source 'n': it is {INSIDE}"]
    assert check_claim(Claim("Workspaces hold 20,000 notes.", "n", "may hold 20,000 notes"), grouped).ok
    assert check_claim(Claim("Notes of 1.5 MB.", "n", "notes of 1.5 MB each."), grouped).ok


def test_punctuation_at_a_quotes_edge_needs_no_word_edge():
    # "days." ends on the source's own full stop; "within 14 days of a payment." too.
    assert quote_in("within 14 days of a payment.", SOURCES["refund-new"])
    assert quote_in("(B) 100 MB for Free", "Limits (B) 100 MB for Free.")
    assert quote_in("error QB-4021", SOURCES["err-4021"]) and not quote_in("error QB-402", SOURCES["err-4021"])


def test_each_piece_of_a_shortened_quote_must_be_whole_too():
    assert problems(Claim("Refunds within 14 days.", "refund-new", "possible within 14 days \u2026 all future charg")) == [
        f"quote not found in source 'refund-new': the piece \"all future charg\" is {INSIDE}"]


# ------------------------------------------------------------------ empty and short quotes

@pytest.mark.parametrize("quote", ["", "   ", "\n\t", "\u2026", " ... [...] "])
def test_an_empty_quote_is_a_problem(quote):
    # An empty string is "in" every text, so it must be caught before the search; a quote of
    # nothing but elision marks is empty too.
    assert problems(Claim("Refunds are possible.", "refund-new", quote)) == ["the quote is empty"]


def test_an_empty_quote_also_leaves_the_claims_numbers_unsupported():
    assert problems(Claim("Refunds within 14 days.", "refund-new", "")) == [
        "the quote is empty", "number 14 in the claim is not in the quote"]


def test_a_one_word_quote_is_too_short_even_when_it_is_in_the_source():
    # "refunded" is in the passage, in the sentence that says the period is NOT refunded.
    assert problems(Claim("The period is refunded.", "refund-new", "refunded")) == [
        "the quote is one word: too short to support a claim"]


def test_a_quote_of_only_a_number_is_too_short():
    assert problems(Claim("Refunds within 14 days.", "refund-new", "14")) == [
        "the quote is only a number: too short to support a claim"]
    assert problems(Claim("A workspace holds 20,000 notes.", "api-limits", "20,000")) == [
        "the quote is only a number: too short to support a claim"]
    assert problems(Claim("It failed three times.", "err-4031", "three")) == [
        "the quote is only a number: too short to support a claim"]


def test_a_quote_of_punctuation_has_no_words():
    assert problems(Claim("Refunds are possible.", "refund-new", ".")) == [
        "the quote has no words: too short to support a claim"]


def test_two_words_are_enough_when_one_is_not_a_number():
    assert too_short("14 days") == ""
    assert too_short("100 mb") == ""
    assert too_short("refundable within") == ""
    assert too_short("twenty-one") == "is only a number"  # one number, written as two words
    assert too_short("a dozen") == "is only a number"
    assert too_short("12:30") == "is only a number"


def test_a_short_quote_that_is_not_in_the_source_has_both_problems():
    assert problems(Claim("Refunds forever.", "refund-new", "forever")) == [
        "the quote is one word: too short to support a claim", "quote not found in source 'refund-new'"]


# ------------------------------------------------------------------ numbers in digits

def test_numbers_are_found_once_each_in_order_as_values():
    assert numbers_in("QB-4021 at 100 MB, then QB-4021 again") == [("4021", "4021"), ("100", "100")]
    assert numbers_in("20,000 notes and 1,000,000 rows") == [("20000", "20,000"), ("1000000", "1,000,000")]
    assert numbers_in("2.5 GB, then 100 MB.") == [("2.5", "2.5"), ("100", "100")]  # a final full stop is no decimal point
    assert numbers_in("no digits here") == []


def test_digits_are_compared_as_numbers_not_as_strings():
    assert numbers_in("007 and 2.50 and 2.0") == [("7", "007"), ("2.5", "2.50"), ("2", "2.0")]
    sources = {"v": "Any provider that supports SAML 2.0 works."}
    assert check_claim(Claim("SAML 2 works.", "v", "supports SAML 2.0"), sources).ok


def test_an_error_code_counts_as_its_number():
    supported = Claim("Error QB-4021 means the file is too large.", "err-4021", "error QB-4021")
    unsupported = Claim("Error QB-4021 means the file is too large.", "err-4021", "Anything larger gets refused")
    assert problems(supported) == []
    assert problems(unsupported) == ["number 4021 in the claim is not in the quote"]


def test_a_number_with_a_thousands_separator():
    exact = Claim("A workspace holds up to 20,000 notes.", "api-limits", "may hold 20,000 notes")
    assert problems(exact) == []
    # 2,000 is the number 2000, not the 20000 of the quote.
    misread = Claim("A workspace holds up to 2,000 notes.", "api-limits", "may hold 20,000 notes")
    assert problems(misread) == ["number 2000 in the claim is not in the quote"]


def test_a_part_of_a_grouped_number_is_not_the_number():
    # Read as runs of digits, "20,000" would hold a "20" and this claim would pass.
    claim = Claim("A workspace holds up to 20 notes.", "api-limits", "may hold 20,000 notes")
    assert problems(claim) == ["number 20 in the claim is not in the quote"]


def test_a_decimal_is_one_number():
    sources = {"sizes": "Team allows 2.5 GB per file."}
    assert check_claim(Claim("Team allows 2.5 GB.", "sizes", "2.5 GB"), sources).ok
    # Read as runs of digits, the quote's "2.5" would hold a "5" and this claim would pass.
    assert check_claim(Claim("Team allows 5 GB.", "sizes", "2.5 GB"), sources).problems == [
        "number 5 in the claim is not in the quote"]


# ------------------------------------------------------------------ numbers in words

def test_three_weeks_against_fourteen_days_fails():
    # The issue's own case: digits-only reading saw no number in "three weeks" and passed it.
    claim = Claim("You can get a refund within three weeks.", "refund-new", "possible within 14 days")
    assert problems(claim) == ['number 3 ("three") in the claim is not in the quote']


def test_a_number_word_in_the_quote_supports_digits_in_the_claim_and_the_reverse():
    assert problems(Claim("A payment is retried 3 times over 7 days.", "err-4031",
                          "failed three retries over seven days")) == []
    assert problems(Claim("Refunds within fourteen days.", "refund-new", "possible within 14 days")) == []


@pytest.mark.parametrize("words, value", [
    ("zero", "0"), ("one", "1"), ("twelve", "12"), ("nineteen", "19"), ("twenty", "20"), ("ninety", "90"),
    ("twenty-one", "21"), ("Twenty One", "21"), ("forty\u2011two", "42"),  # a non-breaking hyphen
    ("a dozen", "12"), ("dozen", "12"), ("a hundred", "100"), ("two hundred", "200"), ("sixty thousand", "60000"),
    ("twenty-five thousand", "25000"), ("20 thousand", "20000"), ("2.5 million", "2500000"), ("1 billion", "1000000000"),
])
def test_number_words_and_their_values(words, value):
    assert [v for v, _ in numbers_in(words)] == [value]


def test_words_that_merely_contain_a_number_word_are_not_numbers():
    assert numbers_in("someone often weighs a tent; none of it is canine, the phone is at height") == []
    assert numbers_in("dozens of plans, hundreds of files, thousands of notes") == []  # plurals are vague


def test_one_as_a_pronoun_is_not_the_number_one():
    # "one" right after the, this, that, which, each, every, any, no, other or another, or right
    # before "of" or "another", is a pronoun. Everywhere else it is 1.
    assert numbers_in("one of the plans; the one you need; no one; no-one; the other one; help one another") == []
    assert numbers_in("one file per upload") == [("1", "one")]
    assert numbers_in("a one-time code") == [("1", "one")]
    assert numbers_in("twenty one of them") == [("21", "twenty one")]


def test_what_the_number_words_do_not_cover():
    # Two numbers where a reader sees one: "and" is not read inside a number. Fails closed:
    # a claim written this way is flagged against a quote that says 250.
    assert numbers_in("two hundred and fifty") == [("200", "two hundred"), ("50", "fifty")]
    assert numbers_in("two dozen") == [("2", "two"), ("12", "dozen")]
    # Ordinals, fractions and "once"/"twice" are not numbers here.
    assert numbers_in("the first, second and third time; half the plans; once or twice") == []


def test_the_quotes_number_words_are_read_after_normalizing_it():
    # Capitals and a non-breaking hyphen in the quote: still twenty-one, still 21.
    sources = {"typeset": "Twenty\u2011One days after the payment, the period ends."}
    claim = Claim("The period ends 21 days after the payment.", "typeset", "Twenty\u2011One days after the payment")
    assert check_claim(claim, sources).ok


def test_a_number_word_names_itself_in_the_problem():
    claim = Claim("Refunds within twenty-one days.", "refund-new", "possible within 14 days")
    assert problems(claim) == ['number 21 ("twenty-one") in the claim is not in the quote']


# ------------------------------------------------------------------ elided quotes

def test_an_elided_quote_passes_when_its_pieces_are_in_the_source_in_order():
    # A model legitimately shortens a long sentence; each piece is a real quote.
    quote = "After those 14 days, cancelling stops all future charges \u2026 the current billing period is not refunded"
    assert problems(Claim("After 14 days the period is not refunded.", "refund-new", quote)) == []
    for marker in ("...", "[...]", "(...)", "[\u2026]", " \u2026 ", "...."):
        quote = f"Refunds are possible{marker}within 14 days of a payment"
        assert problems(Claim("Refunds within 14 days.", "refund-new", quote)) == [], marker


def test_a_leading_or_trailing_ellipsis_only_marks_a_quote_cut_mid_sentence():
    assert quote_pieces("\u2026are possible within 14 days\u2026") == ["are possible within 14 days"]
    assert problems(Claim("Refunds within 14 days.", "refund-new", "\u2026are possible within 14 days\u2026")) == []


def test_pieces_out_of_order_are_not_a_quote():
    quote = "the current billing period is not refunded \u2026 Refunds are possible within 14 days"
    assert problems(Claim("Refunds within 14 days.", "refund-new", quote)) == [
        "quote not found in source 'refund-new': the piece \"refunds are possible within 14 days\" "
        "does not come after \"the current billing period is not refunded\""]


def test_a_piece_that_is_nowhere_in_the_source_is_named():
    quote = "Refunds are possible \u2026 for any reason"
    assert problems(Claim("Refunds are possible.", "refund-new", quote)) == [
        "quote not found in source 'refund-new': the piece \"for any reason\" is not in it"]


def test_a_piece_may_not_overlap_the_one_before():
    # "14 days" occurs twice; the second piece must start after the first one ends.
    sources = {"once": "Refunds within 14 days only."}
    assert check_claim(Claim("x", "once", "within 14 days \u2026 14 days only"), sources).problems == [
        "quote not found in source 'once': the piece \"14 days only\" does not come after \"within 14 days\""]
    assert problems(Claim("x", "refund-new", "within 14 days \u2026 those 14 days")) == []


def test_every_piece_must_be_long_enough_on_its_own():
    # Without this, "period is … refunded" would stitch one word onto a phrase that says the opposite.
    assert problems(Claim("The period is refunded.", "refund-new", "the current billing period is \u2026 refunded")) == [
        'the piece "refunded" of the shortened quote is one word: too short to support a claim']


def test_the_risk_of_elision_a_dropped_negation_still_passes():
    # Each piece is long enough and in order, but the "not" between them was left out: the
    # quote now says the opposite of its source. Code cannot see that; a judge or a person can.
    quote = "the current billing period is \u2026 refunded and the workspace keeps its paid features"
    sources = {"r": "After 14 days the current billing period is not refunded and the workspace keeps its paid features."}
    assert check_claim(Claim("The current billing period is refunded.", "r", quote), sources).ok


def test_a_source_that_itself_holds_an_ellipsis_is_matched_as_written_first():
    sources = {"s": "Wait for the Loading... screen to finish before you export."}
    assert check_claim(Claim("Wait.", "s", "wait for the loading... screen"), sources).ok


def test_numbers_of_an_elided_quote_count_from_every_piece():
    quote = "possible within 14 days \u2026 cancelling stops all future charges"
    assert problems(Claim("Within 14 days; after that cancelling stops charges.", "refund-new", quote)) == []


def test_quote_in_is_the_checkers_matching_alone():
    text = SOURCES["refund-new"]
    assert quote_in("REFUNDS are possible\u2026 14 days of a payment", text)
    assert not quote_in("14 days of a payment \u2026 Refunds are possible", text)
    assert not quote_in("", text) and not quote_in("\u2026", text)


# ------------------------------------------------------------------ what the checker does not do

def test_a_unit_is_not_compared():
    # Only the number 100 is compared; "GB" against the quote's "MB" goes unseen.
    assert problems(Claim("Free plans accept files up to 100 GB.", "err-4021", "100 MB for Free")) == []


def test_a_range_is_two_numbers():
    assert numbers_in("refundable for 14-21 days") == [("14", "14"), ("21", "21")]


def test_an_accent_is_compared_as_typed():
    # "é" as one character and "e" + a combining accent look the same and do not match:
    # folding them (Unicode normalization) depends on a Unicode version the twins need not share.
    sources = {"fr": "Le caf\u00e9 est ouvert."}
    assert check_claim(Claim("Open.", "fr", "le cafe\u0301 est ouvert"), sources).problems == [
        "quote not found in source 'fr'"]


def test_a_paraphrase_in_quotation_marks_is_not_a_quote():
    # Same meaning, other words: the checker wants the source's words.
    assert problems(Claim("Refunds within 14 days.", "refund-new", "refunds can be had for 14 days")) == [
        "quote not found in source 'refund-new'"]
