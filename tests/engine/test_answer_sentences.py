"""Reading the answer, not only its claims (engine/citations.py answer_sentences): each sentence
of an answer with the claims whose words it holds, and the sentences no claim backs. Every
expected result is written out by hand, for a reader."""

from engine.citations import UNBACKED, AnswerSentence, answer_sentences

REFUND = ("Not for the current period. Paid plans are refundable only within 14 days of the payment, "
          "and three weeks is past that [refund-new]. You can still cancel: that stops all future charges, "
          "but the current billing period is not refunded [refund-new]. An older page promising money back "
          "for longer has been superseded.")


def test_the_sample_refund_answer_has_two_sentences_no_claim_backs():
    got = answer_sentences(REFUND, ["Paid plans are refundable only within 14 days of the payment",
                                    "that stops all future charges, but the current billing period is not refunded"])
    assert got == [
        AnswerSentence("Not for the current period.", ()),
        AnswerSentence("Paid plans are refundable only within 14 days of the payment, and three weeks is past that "
                       "[refund-new].", (0,)),
        AnswerSentence("You can still cancel: that stops all future charges, but the current billing period is not "
                       "refunded [refund-new].", (1,)),
        AnswerSentence("An older page promising money back for longer has been superseded.", ()),
    ]
    assert [s.backed for s in got] == [False, True, True, False]
    assert UNBACKED == "no claim backs this sentence"


def test_two_claims_can_back_one_sentence_in_claim_order():
    answer = "Free allows 100 MB and Team allows 2 GB. Compress the file."
    assert answer_sentences(answer, ["Team allows 2 GB", "Free allows 100 MB", "compress the file"]) == [
        AnswerSentence("Free allows 100 MB and Team allows 2 GB.", (0, 1)),
        AnswerSentence("Compress the file.", (2,)),
    ]


def test_words_are_found_as_quotes_are_ignoring_case_spacing_typography_and_entities():
    answer = "An owner adds the provider\u2019s details under Settings,\u00a0Security. Done\u2014really."
    assert answer_sentences(answer, ["AN OWNER adds the provider's  details", "done-really", "settings,&nbsp;security"]) == [
        # The sentence as the splitter gives it: its no-break space is white space, folded to " ".
        AnswerSentence("An owner adds the provider\u2019s details under Settings, Security.", (0, 2)),
        AnswerSentence("Done\u2014really.", (1,)),
    ]


def test_words_must_stand_whole_in_the_sentence():
    answer = "Refundable within 14 days. Admins cannot restore it."
    # "within 1" stops inside "14"; "admins can" inside "cannot": neither places its claim.
    assert answer_sentences(answer, ["within 1", "admins can", "14 days"]) == [
        AnswerSentence("Refundable within 14 days.", (2,)),
        AnswerSentence("Admins cannot restore it.", ()),
    ]


def test_words_across_two_sentences_or_nowhere_place_their_claim_nowhere():
    answer = "Refunds last 14 days. Older pages differ."
    assert answer_sentences(answer, ["14 days. Older pages", "a sentence it does not have", "", "   "]) == [
        AnswerSentence("Refunds last 14 days.", ()),
        AnswerSentence("Older pages differ.", ()),
    ]


def test_words_in_two_sentences_back_both():
    answer = "Wait an hour. Then wait an hour again!"
    assert answer_sentences(answer, ["wait an hour"]) == [
        AnswerSentence("Wait an hour.", (0,)),
        AnswerSentence("Then wait an hour again!", (0,)),
    ]


def test_sentences_are_the_chunkers_sentences_white_space_folded():
    # split_sentences: a sentence ends at . ! or ? before white space, runs of white space are one.
    answer = "  One?\n\nTwo!   Three.Four  "
    assert answer_sentences(answer, ["three.four"]) == [
        AnswerSentence("One?", ()), AnswerSentence("Two!", ()), AnswerSentence("Three.Four", (0,))]


def test_an_empty_answer_has_no_sentences_and_no_claims_is_no_backing():
    assert answer_sentences("", ["anything"]) == []
    assert answer_sentences(" \n\t ", []) == []
    assert answer_sentences("Only this.", []) == [AnswerSentence("Only this.", ())]
