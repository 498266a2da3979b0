from engine.chunking import chunk_fixed, chunk_headings, chunk_sentences, split_sentences

SENTENCES = [
    "Notes you delete go to the Trash.",                                  # 7 words
    "They stay there for thirty days before they are removed for good.",  # 12 words
    "On the Business plan admins get a second safety net for sixty more days after that.",  # 16 words
]


def test_split_sentences():
    assert split_sentences("  One here.  Two!\nThree?  ") == ["One here.", "Two!", "Three?"]


def test_sentences_at_a_wide_limit():
    assert chunk_sentences(SENTENCES, max_words=30, overlap=1) == [
        " ".join(SENTENCES[:2]),       # 7 + 12 = 19; + 16 = 35 > 30
        " ".join(SENTENCES[1:3]),      # repeats sentence 2: 12 + 16 = 28 <= 30
    ]


def test_sentences_at_a_narrow_limit_gives_a_chunk_of_only_the_overlap():
    assert chunk_sentences(SENTENCES, max_words=20, overlap=1) == [
        " ".join(SENTENCES[:2]),  # 7 + 12 = 19 <= 20
        SENTENCES[1],             # repeats sentence 2; 12 + 16 = 28 > 20: only the overlap
        SENTENCES[2],             # always advancing
    ]


def test_overlap_repeats_exactly_the_last_sentences_of_the_chunk_before():
    one_word = ["A.", "B.", "C.", "D.", "E.", "F.", "G."]
    # Three one-word sentences a chunk; each next chunk starts with the last `overlap` of the one before.
    assert chunk_sentences(one_word, max_words=3, overlap=1) == ["A. B. C.", "C. D. E.", "E. F. G."]
    assert chunk_sentences(one_word, max_words=3, overlap=2) == ["A. B. C.", "B. C. D.", "C. D. E.", "D. E. F.", "E. F. G."]
    assert chunk_sentences(one_word, max_words=3, overlap=0) == ["A. B. C.", "D. E. F.", "G."]


def test_sentence_longer_than_the_limit_is_its_own_chunk():
    assert chunk_sentences(SENTENCES, max_words=5) == SENTENCES


def test_fixed_with_and_without_overlap():
    text = " ".join(f"w{i}" for i in range(1, 8))  # 7 words
    assert chunk_fixed(text, 3) == ["w1 w2 w3", "w4 w5 w6", "w7"]
    assert chunk_fixed(text, 3, overlap=1) == ["w1 w2 w3", "w3 w4 w5", "w5 w6 w7"]


def test_fixed_rejects_overlap_as_large_as_the_size():
    import pytest

    with pytest.raises(ValueError, match="overlap"):
        chunk_fixed("a b c", 2, overlap=2)


def test_headings():
    page = "## Trash\nNotes stay 30 days.\n\n## Recovery\nAdmins can restore.\nFor 60 more days.\n"
    assert chunk_headings(page) == ["Trash\nNotes stay 30 days.", "Recovery\nAdmins can restore. For 60 more days."]
