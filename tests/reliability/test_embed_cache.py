"""The embedding cache (builder/embed_cache.py) trusts nothing it cannot check: a file whose
numbers no longer match their checksum is discarded with one warning and every text is
embedded again. Here the model is a stand-in that gives each text a vector of its own."""

import base64
import json

import numpy as np
import pytest

import engine.dense
from builder import embed_cache
from builder.embed_cache import EmbeddingCache, text_key

TEXTS = ["refund after three weeks", "QB-4021 upload", "sign in with Okta"]


@pytest.fixture
def fake_model(monkeypatch):
    calls = []

    def embed(texts, progress=None):
        calls.append(list(texts))
        rows = [np.full(384, (sum(map(ord, text)) % 97) / 97, dtype=np.float32) for text in texts]
        return np.asarray(rows, dtype=np.float32)

    monkeypatch.setattr(engine.dense, "embed", embed)
    return calls


def test_a_warm_cache_embeds_nothing_again(tmp_path, fake_model):
    first = EmbeddingCache(tmp_path, "model-a")
    vectors = first.embed(TEXTS)
    first.save()
    again = EmbeddingCache(tmp_path, "model-a")
    assert np.array_equal(again.embed(TEXTS), vectors)
    assert again.stats.computed == 0 and fake_model == [TEXTS]


def test_a_cache_with_a_wrong_number_is_discarded_and_embedded_again(tmp_path, fake_model, capsys):
    cache = EmbeddingCache(tmp_path, "model-a")
    vectors = cache.embed(TEXTS)
    cache.save()
    payload = json.loads(cache.path.read_text())
    key = sorted(payload["entries"])[0]
    raw = bytearray(base64.b64decode(payload["entries"][key]))
    raw[0] ^= 0xFF  # one number changed; the checksum is not updated
    payload["entries"][key] = base64.b64encode(bytes(raw)).decode()
    cache.path.write_text(json.dumps(payload))

    reread = EmbeddingCache(tmp_path, "model-a")
    warnings = [line for line in capsys.readouterr().err.splitlines() if "discarding embedding cache" in line]
    assert len(warnings) == 1 and "checksum does not match" in warnings[0]
    assert np.array_equal(reread.embed(TEXTS), vectors)
    assert reread.stats.computed == len(TEXTS)


def test_a_cache_of_another_model_is_not_read(tmp_path, fake_model, capsys):
    cache = EmbeddingCache(tmp_path, "model-a")
    cache.embed(TEXTS)
    cache.save()
    other = EmbeddingCache(tmp_path, "model-b")
    assert other.path != cache.path and other.entries == {}
    assert capsys.readouterr().err == ""


def test_building_another_corpus_keeps_the_first_corpus_vectors(tmp_path, fake_model):
    """A build keeps its own texts; another corpus built with the same cache folder does not
    evict them, so the first corpus's next build embeds nothing."""
    main, other = ["main one", "main two", "main three"], ["other one", "other two"]
    for texts in (main, other):
        cache = EmbeddingCache(tmp_path, "model-a")
        cache.embed(texts)
        cache.save(keep={text_key(t) for t in texts})
    again = EmbeddingCache(tmp_path, "model-a")
    again.embed(main)
    assert again.stats.computed == 0 and fake_model == [main, other]


def test_past_the_bound_the_least_recently_used_texts_go_first_and_a_builds_own_never(tmp_path, fake_model,
                                                                                         monkeypatch):
    monkeypatch.setattr(embed_cache, "MAX_ENTRIES", 4)
    for texts in (["a1", "a2"], ["b1", "b2"], ["c1", "c2", "c3"]):
        cache = EmbeddingCache(tmp_path, "model-a")
        cache.embed(texts)
        cache.save(keep={text_key(t) for t in texts})
    kept = EmbeddingCache(tmp_path, "model-a").entries
    # c's three, then one more: b was used after a, so a b text stays and both a texts go.
    assert {text_key(t) for t in ["c1", "c2", "c3"]} <= set(kept) and len(kept) == 4
    assert not {text_key(t) for t in ["a1", "a2"]} & set(kept)
    big = EmbeddingCache(tmp_path, "model-a")
    many = [f"d{i}" for i in range(6)]
    big.embed(many)
    big.save(keep={text_key(t) for t in many})
    assert set(EmbeddingCache(tmp_path, "model-a").entries) == {text_key(t) for t in many}, "a build's own: all kept"


def test_a_build_with_nothing_new_leaves_the_file_alone_and_one_that_embedded_writes_it(tmp_path, fake_model):
    """A no-op build writes no embedding cache (its seven megabytes were a tenth of such a build);
    a build that embedded anything writes it, even where the texts' order is the file's (a file
    whose entries were discarded as damaged is written again once its texts are embedded)."""
    first = EmbeddingCache(tmp_path, "model-a")
    first.embed(TEXTS)
    first.save(keep={text_key(t) for t in TEXTS})
    written = (first.path.stat().st_mtime_ns, first.path.read_bytes())
    again = EmbeddingCache(tmp_path, "model-a")
    again.embed(TEXTS)
    again.save(keep={text_key(t) for t in TEXTS})
    assert (again.path.stat().st_mtime_ns, again.path.read_bytes()) == written
    payload = json.loads(first.path.read_text())
    payload["entries"][sorted(payload["entries"])[0]] = base64.b64encode(np.ones(384, dtype="<f4").tobytes()).decode()
    first.path.write_text(json.dumps(payload))  # its checksum no longer matches: discarded, all embedded again
    damaged = EmbeddingCache(tmp_path, "model-a")
    damaged.embed(TEXTS)
    damaged.save(keep={text_key(t) for t in TEXTS})
    assert damaged.stats.computed == len(TEXTS)
    assert EmbeddingCache(tmp_path, "model-a").entries == again.entries
