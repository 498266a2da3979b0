"""engine/models.py's encode_each: texts of one length share a forward pass, and what comes out is
what a pass of each text alone gives, or every text gets a pass of its own.

The logic is tried on a stand-in model (its "vectors" are arithmetic on the text, and its batched
kernels can be made to drift in the last digit); the property it rests on, on the real model, in
test_dense.py (test_texts_of_one_length_embed_together_as_each_alone)."""

import numpy as np
import pytest

from engine.models import encode_each, same_length_batches


class StandIn:
    """A model with a tokenizer (a wordpiece per word) and an encode() whose vector of a text is
    [words, letters], and whose batches of two or more texts come out 1e-7 off when `drifts`."""

    max_seq_length = 256

    def __init__(self, drifts: bool = False):
        self.drifts = drifts
        self.passes: list[int] = []  # the size of each forward pass

    def tokenizer(self, texts, truncation, max_length):
        assert truncation == "longest_first" and max_length == 256
        return {"input_ids": [[0] * len(text.split()) for text in texts]}

    def encode(self, texts, batch_size, **_):
        assert batch_size == len(texts)
        self.passes.append(len(texts))
        rows = np.asarray([[len(t.split()), len(t)] for t in texts], dtype=np.float32)
        return rows + np.float32(1e-7) * (self.drifts and len(texts) > 1)


TEXTS = ["one", "two words", "three words here", "four", "five six", "seven eight nine", "ten"]
ALONE = [np.asarray([len(t.split()), len(t)], dtype=np.float32) for t in TEXTS]


def test_batches_hold_one_length_each_every_text_once_longest_first():
    lengths = [3, 1, 2, 3, 1, 3, 3]
    batches = same_length_batches(lengths, limit=3)
    assert sorted(place for batch in batches for place in batch) == list(range(len(lengths)))
    assert all(len({lengths[p] for p in batch}) == 1 and len(batch) <= 3 for batch in batches)
    assert [lengths[batch[0]] for batch in batches] == [3, 3, 2, 1]
    assert same_length_batches([]) == []


def test_texts_of_one_length_share_a_pass_and_come_out_as_alone():
    model = StandIn()
    progress = []
    vectors = encode_each(model, TEXTS, lambda done, total: progress.append((done, total)))
    assert all(np.array_equal(v, a) for v, a in zip(vectors, ALONE))
    # Three lengths: three batched passes, each batch's first text once more alone (the check).
    assert sorted(model.passes) == [1, 1, 1, 2, 2, 3]
    assert progress[-1] == (7, 7) and [done for done, _ in progress] == sorted(done for done, _ in progress)


def test_where_a_batch_comes_out_otherwise_every_text_gets_a_pass_of_its_own():
    model = StandIn(drifts=True)
    vectors = encode_each(model, TEXTS)
    assert all(np.array_equal(v, a) for v, a in zip(vectors, ALONE)), "a drifted batch's vector was kept"


def test_torchs_thread_count_is_put_back_even_when_a_pass_fails():
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()

    class Broken(StandIn):
        def encode(self, texts, batch_size, **_):
            assert torch.get_num_threads() == 1, "a pass runs on one thread"
            raise RuntimeError("out of memory")

    torch.set_num_threads(2)  # the process's own count, as a reranker or the export may want it
    try:
        with pytest.raises(RuntimeError):
            encode_each(Broken(), TEXTS)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
