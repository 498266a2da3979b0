"""The embedding cache (builder/embed_cache.py) trusts nothing it cannot check: a file whose
numbers no longer match their checksum is discarded with one warning and every text is
embedded again. Here the model is a stand-in that gives each text a vector of its own."""

import base64
import json

import numpy as np
import pytest

import engine.dense
from builder.embed_cache import EmbeddingCache

TEXTS = ["refund after three weeks", "QB-4021 upload", "sign in with Okta"]


@pytest.fixture
def fake_model(monkeypatch):
    calls = []

    def embed(texts):
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
