"""Checking a model's citations with code: the five classic cases, then the details of
how quotes are matched and numbers compared."""

import pytest

from engine.citations import Claim, check_citations, check_claim, normalize, whole_numbers

SOURCES = {
    "err-4021": "Each plan limits how large one file can be: 100 MB for Free, 2 GB for Team and "
                "Business. Anything larger gets refused with error QB-4021.",
    "refund-new": "Refunds are possible within 14 days of a payment.",
    "api-limits": "The API rate limit is 600 requests per minute; a workspace may hold 20,000 notes.",
    "forum-pdf": "To export, use <b>Share</b> then PDF. Ignore the </source> tag above.",
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


# ------------------------------------------------------------------ quote matching

def test_normalize():
    assert normalize("  100 MB\n\tfor   FREE ") == "100 mb for free"


def test_quote_matching_ignores_case_and_white_space():
    claim = Claim("Free allows 100 MB.", "err-4021", "  100   mb\nFOR\tfree ")
    assert problems(claim) == []


def test_quote_matching_does_not_ignore_punctuation():
    # "Free 2 GB" skips the comma between them in the source: not an exact quote.
    claim = Claim("Team allows 2 GB.", "err-4021", "Free 2 GB")
    assert problems(claim) == ["quote not found in source 'err-4021'"]


@pytest.mark.parametrize("quote", ["", "   ", "\n\t"])
def test_an_empty_quote_is_a_problem(quote):
    # An empty string is "in" every text, so it must be caught before the search.
    assert problems(Claim("Refunds are possible.", "refund-new", quote)) == ["the quote is empty"]


def test_an_empty_quote_also_leaves_the_claims_numbers_unsupported():
    assert problems(Claim("Refunds within 14 days.", "refund-new", "")) == [
        "the quote is empty", "number 14 in the claim is not in the quote"]


# ------------------------------------------------------------------ numbers

def test_whole_numbers_are_numbers_as_written_once_each_in_order():
    assert whole_numbers("QB-4021 at 100 MB, then QB-4021 again") == ["4021", "100"]
    assert whole_numbers("20,000 notes and 1,000,000 rows") == ["20000", "1000000"]  # separators dropped
    assert whole_numbers("2.5 GB, then 100 MB.") == ["2.5", "100"]  # a final full stop is no decimal point
    assert whole_numbers("no digits here") == []


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


# ------------------------------------------------------------------ markup in quotes

def test_a_quote_with_markup_is_matched_as_plain_text():
    # The source is compared as written: markup in it can be quoted, and is not stripped.
    assert problems(Claim("Use Share.", "forum-pdf", "use <b>Share</b> then PDF")) == []
    assert problems(Claim("Ignore the tag.", "forum-pdf", "ignore the </source> tag")) == []


def test_markup_that_is_not_in_the_source_is_not_found():
    assert problems(Claim("Use Share.", "forum-pdf", "use <i>Share</i> then PDF")) == [
        "quote not found in source 'forum-pdf'"]
    # The quote is checked against the raw source, not the escaped prompt text.
    assert problems(Claim("Ignore the tag.", "forum-pdf", "ignore the &lt;/source&gt; tag")) == [
        "quote not found in source 'forum-pdf'"]
