"""BM25 on a four-passage textbook example, every expected value written as arithmetic,
plus parity with rank_bm25 set to the same formula."""

import math

import pytest

from engine.bm25 import BM25

PASSAGES = [
    "QB-4021 means the file is over your plan's limit",
    "QB-4290 too many requests",
    "Upload files from the phone",
    "Trash keeps notes for thirty days",
]


def lucene_idf(n_docs, n_with_term):
    return math.log(1 + (n_docs - n_with_term + 0.5) / (n_with_term + 0.5))


def tf_part(f, length, avg, k1=1.2, b=0.75):
    return f * (k1 + 1) / (f + k1 * (1 - b + b * length / avg))


def test_textbook_example():
    index = BM25(PASSAGES)
    lengths = [11, 5, 5, 6]  # "plan's" is two terms, plan and s; "QB-4290" is qb and 4290
    assert index.lengths == lengths
    avg = sum(lengths) / 4
    scores = index.scores("QB-4021 file limit")
    # passage 0 has qb, 4021, file and limit once each; qb is also in passage 1.
    expected_0 = (lucene_idf(4, 2) + lucene_idf(4, 1) * 3) * tf_part(1, 11, avg)
    # passage 1 shares only qb; passage 2 says "files", which without stemming is another term.
    expected_1 = lucene_idf(4, 2) * tf_part(1, 5, avg)
    assert scores == pytest.approx([expected_0, expected_1, 0.0, 0.0], rel=1e-12)


def test_repeated_query_terms_count_once():
    index = BM25(PASSAGES)
    assert index.scores("limit limit limit") == index.scores("limit")


def test_explain_adds_up_to_the_score():
    index = BM25(PASSAGES)
    parts = index.explain("QB-4021 file limit", 0)
    assert [p.term for p in parts] == ["qb", "4021", "file", "limit"]
    assert sum(p.score for p in parts) == pytest.approx(index.scores("QB-4021 file limit")[0], rel=1e-12)


def test_term_frequency_saturates():
    # Same length, more occurrences: a higher score, but each extra occurrence adds less.
    index = BM25(["refund a b c", "refund refund b c", "refund refund refund c", "x y z w"])
    s1, s2, s3, _ = index.scores("refund")
    assert s1 < s2 < s3
    assert s3 - s2 < s2 - s1
    assert index.tf_part(1000, index.avg_len) < index.k1 + 1


def test_inverted_index_holds_only_texts_with_the_term():
    index = BM25(PASSAGES)
    assert index.postings["qb"] == [(0, 1), (1, 1)]
    assert "files" in index.postings and "file" in index.postings


def test_parity_with_rank_bm25():
    from rank_bm25 import BM25Okapi

    from engine.tokenize import tokenize

    corpus = PASSAGES + ["Refunds are possible within fourteen days of a payment",
                         "Export a note as PDF from the share menu", "file file file limit"]

    class LuceneIdf(BM25Okapi):
        # rank_bm25's Okapi IDF can go negative; Lucene's ln(1 + ...) cannot. Same everything else.
        def _calc_idf(self, nd):
            for word, freq in nd.items():
                self.idf[word] = lucene_idf(self.corpus_size, freq)

    reference = LuceneIdf([tokenize(t) for t in corpus], k1=1.2, b=0.75)
    ours = BM25(corpus)
    for query in ("QB-4021 file limit", "refund", "export pdf note", "the", "nothing matches"):
        expected = reference.get_scores(list(dict.fromkeys(tokenize(query))))
        assert ours.scores(query) == pytest.approx(list(expected), rel=1e-9, abs=1e-12)


def test_an_index_extended_part_by_part_is_the_one_a_single_call_builds():
    texts = ["QB-4021: the file is too large", "Refunds within 14 days", "", "qb qb qb", "Offline edits queue",
             "file limits per plan: 100 MB on Free", "refund refund"]
    whole = BM25(texts)
    for cuts in ([0, 7], [3, 7], [1, 2, 5, 7], list(range(8))):
        built = BM25(texts[:cuts[0]])
        for start, end in zip(cuts, cuts[1:]):
            assert built.extend(BM25(texts[start:end])) is built
        assert (built.postings, built.lengths, built.n_docs, built.avg_len) == \
               (whole.postings, whole.lengths, whole.n_docs, whole.avg_len), cuts
        assert list(built.postings) == list(whole.postings)  # terms in the order one call meets them
        assert built.scores("QB-4021 file refund") == whole.scores("QB-4021 file refund")


def test_extending_by_an_index_of_other_settings_is_refused():
    with pytest.raises(ValueError, match="k1 and b differ"):
        BM25(["a"]).extend(BM25(["b"], k1=2.0))
