"""Reranking: the cut-off and ordering helpers on textbook inputs, the illustrative scores
by default, and the real path: with RAG_EXPLAINER_RERANKER naming a cross-encoder folder,
the build scores the fused candidates with it through sentence-transformers and the page
names the model instead of saying "illustrative".

The cross-encoder here is a tiny, randomly initialised BERT (2 layers, hidden size 32) that
the test builds in a temporary folder from a vocabulary of its own: no download, and its
scores mean nothing, which is fine: the test checks the plumbing, not the judgement.
"""

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # never reach for the network, before anything imports the hub

import json  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import pytest  # noqa: E402

from builder.reranking import model_label, rerank_data  # noqa: E402
from engine import rerank  # noqa: E402
from engine.rerank import RERANK_DEPTH, RERANKER_ENV, by_score, cut_off  # noqa: E402
from engine.tokenize import tokenize  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

PASSAGES = {
    "err-4021": "Each plan limits how big one file can be. A file too large is refused with QB-4021.",
    "err-4290": "QB-4290 means too many API requests in a short time.",
    "refund-new": "Paid plans are refundable within 14 days of the payment.",
    "sso-1": "Single sign-on works with any SAML 2.0 or OpenID Connect identity provider.",
}
QUESTIONS = {"upload": "Getting QB-4021 when uploading", "refund": "Can I get a refund after three weeks?"}


# ------------------------------------------------------------------ helpers on plain data

def test_by_score_sorts_best_first_and_keeps_ties_in_order():
    assert by_score({"a": 0.2, "b": 0.9, "c": 0.2}) == [("b", 0.9), ("a", 0.2), ("c", 0.2)]


def test_cut_off_keeps_scores_at_or_above_the_threshold():
    ranked = [("a", 0.9), ("b", 0.5), ("c", 0.49)]
    assert cut_off(ranked, 0.5) == [("a", 0.9), ("b", 0.5)]
    assert cut_off(ranked, 0.95) == []


def test_model_label_names_a_folder_by_its_own_name(tmp_path):
    folder = tmp_path / "ms-marco-tiny"
    folder.mkdir()
    assert model_label(str(folder)) == "ms-marco-tiny"
    assert model_label("cross-encoder/ms-marco-MiniLM-L-6-v2") == "cross-encoder/ms-marco-MiniLM-L-6-v2"


# ------------------------------------------------------------------ a small corpus and its runs

def fake_corpus():
    passages = {pid: SimpleNamespace(id=pid, text=text) for pid, text in PASSAGES.items()}
    tracer = SimpleNamespace(id="upload", line=1, rerank={"err-4290": 0.12, "err-4021": 0.97, "sso-1": 0.05,
                                                         "refund-new": 0.02})
    return SimpleNamespace(root="corpus", by_id=passages, tracers=[tracer])


def fake_runs():
    order = {"upload": ["err-4290", "err-4021", "sso-1", "refund-new"],
             "refund": ["refund-new", "err-4021", "err-4290"]}
    return {qid: {"hybrid": [[pid, 1 / (60 + i)] for i, pid in enumerate(ids, start=1)]}
            for qid, ids in order.items()}


QUESTION_OBJECTS = [SimpleNamespace(id=qid, text=text) for qid, text in QUESTIONS.items()]


def test_without_a_model_the_scores_are_the_corpus_illustrative_ones(monkeypatch):
    monkeypatch.delenv(RERANKER_ENV, raising=False)
    result = rerank_data(fake_corpus(), QUESTION_OBJECTS, fake_runs())
    assert result == {"source": "illustrative", "model": None, "label": None, "depth": RERANK_DEPTH,
                      "by_question": {"upload": [["err-4021", 0.97], ["err-4290", 0.12], ["sso-1", 0.05],
                                                 ["refund-new", 0.02]]}}


# ------------------------------------------------------------------ the real path, on a tiny model

@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory):
    """A randomly initialised 2-layer BERT cross-encoder saved as a model folder."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("models") / "tiny-cross-encoder"
    folder.mkdir()
    words = sorted({w for text in [*PASSAGES.values(), *QUESTIONS.values()] for w in tokenize(text)})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", "utf-8")
    tokenizer = transformers.BertTokenizer(str(folder / "vocab.txt"), do_lower_case=True)
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=64, max_position_embeddings=128,
                                     num_labels=1)
    transformers.BertForSequenceClassification(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def direct_scores(folder: Path, question: str, texts: list[str]) -> list[float]:
    """The same model loaded and run independently of engine/rerank.py."""
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(str(folder), device="cpu")
    return [float(s) for s in model.predict([(question, text) for text in texts], show_progress_bar=False)]


def test_cross_encoder_scores_come_from_the_named_model(tiny_cross_encoder):
    texts = list(PASSAGES.values())
    scores = rerank.cross_encoder_scores(str(tiny_cross_encoder), QUESTIONS["upload"], texts)
    assert len(scores) == len(texts) and all(isinstance(s, float) for s in scores)
    assert scores == pytest.approx(direct_scores(tiny_cross_encoder, QUESTIONS["upload"], texts), abs=1e-6)
    assert len(set(round(s, 6) for s in scores)) > 1, "a random model still tells texts apart"
    assert rerank.cross_encoder_scores(str(tiny_cross_encoder), QUESTIONS["upload"], []) == []


def test_with_the_environment_variable_the_build_reranks_every_question_with_the_model(tiny_cross_encoder, monkeypatch):
    monkeypatch.setenv(RERANKER_ENV, str(tiny_cross_encoder))
    runs = fake_runs()
    result = rerank_data(fake_corpus(), QUESTION_OBJECTS, runs)
    assert result["source"] == "model"
    assert result["model"] == str(tiny_cross_encoder)
    assert result["label"] == "tiny-cross-encoder"
    assert set(result["by_question"]) == set(QUESTIONS)
    for qid, ranked in result["by_question"].items():
        candidates = [pid for pid, _ in runs[qid]["hybrid"][:RERANK_DEPTH]]
        assert sorted(pid for pid, _ in ranked) == sorted(candidates)
        scores = [score for _, score in ranked]
        assert scores == sorted(scores, reverse=True)
        expected = dict(zip(candidates, direct_scores(tiny_cross_encoder, QUESTIONS[qid],
                                                      [PASSAGES[pid] for pid in candidates])))
        assert dict(ranked) == pytest.approx({pid: round(s, 6) for pid, s in expected.items()}, abs=2e-6)


def test_the_rerank_lab_names_the_model_instead_of_illustrative(tiny_cross_encoder, monkeypatch, data):
    """Render the lab (its frame, and its view as the build draws it) from the built page's data
    with the model's scores swapped in."""
    from site_src.labs.rerank import data as rerank_lab
    from builder.page import assets, lab_views
    from builder.page.facts import Facts
    from builder.page.render import render_lab

    by_id = {p["id"]: SimpleNamespace(id=p["id"], text=p["text"]) for p in data["passages"]}
    tracers = [q for q in data["questions"] if q["set"] == "tracer"]
    monkeypatch.setenv(RERANKER_ENV, str(tiny_cross_encoder))
    data = json.loads(json.dumps(data))  # the session's data stays as built
    data["rerank"] = rerank_data(SimpleNamespace(by_id=by_id, tracers=[]),
                                 [SimpleNamespace(id=q["id"], text=q["text"]) for q in tracers], data["runs"])
    data["labs"]["rerank"] = rerank_lab.data(SimpleNamespace(data=data))
    frame = render_lab("rerank", Facts(data).namespace(), {})
    built = dict(assets.files(data))
    drawing, = lab_views.run_renderer({"schema": data["schema"], "sources": lab_views.sources(built, assets.SHARED),
                                       "drawings": [{"lab": "rerank", "state": {"q": tracers[0]["id"], "t": None}}]})
    html = frame + drawing.html
    assert "tiny-cross-encoder" in html
    assert "illustrative" not in html.lower()
    assert drawing.html.count('class="result') >= len(data["runs"][tracers[0]["id"]]["hybrid"][:RERANK_DEPTH])
