"""The export of the reader's documents and its import (site_src/docs/export.js, index-vectors.js),
in Node, on the sample set with stand-in vectors (what is tested is the file, not the model):
everything survives the round trip bit for bit, importing it back embeds nothing already in it,
one from another model keeps its chunks and marks and drops its vectors, and a damaged or
hand-edited file is refused with the problem named."""

import base64
import copy
import json

import numpy as np
import pytest

from builder.live_model import COSINE_TOLERANCE
from engine import settings
from docs.sample_set import chunked, exported, questions, vectors_of
from support.stand_in_model import stand_in_embed

SETTING = {"chunker": "sentences", "limit": 40, "repeat": 1}
IMPORT = """async (RAG, input) => {
  try {
    const found = await RAG.docs.importBundle(input.text, { fingerprint: input.fingerprint });
    const b64 = (v) => RAG.docs.vectorToBase64(v);
    return { chunks: found.chunks, setting: found.setting, questions: found.questions, marks: found.marks, settings: found.settings,
             vectors: Object.fromEntries(Object.entries(found.vectors).map(([h, v]) => [h, b64(v)])),
             questionVectors: Object.fromEntries(Object.entries(found.questionVectors).map(([id, v]) => [id, b64(v)])),
             dropped: found.dropped, toEmbed: found.toEmbed };
  } catch (error) { return { error: error.name + ": " + error.message }; }
}"""


@pytest.fixture(scope="module")
def chunks(node):
    return chunked(node, SETTING)


@pytest.fixture(scope="module")
def bundle(node, chunks):
    return exported(node, SETTING, stand_in_embed([c["text"] for c in chunks]), stand_in_embed([q["question"] for q in questions()]),
                    chunks=chunks)


def imported(node, bundle_or_text, fingerprint="model:test"):
    text = bundle_or_text if isinstance(bundle_or_text, str) else json.dumps(bundle_or_text)
    return node.run(IMPORT, {"text": text, "fingerprint": fingerprint})


def test_the_file_holds_chunks_vectors_questions_marks_model_and_settings(bundle, chunks):
    assert bundle["schema"] == 1 and bundle["kind"] == "rag-explainer/documents"
    assert bundle["model"] == {"name": "all-MiniLM-L6-v2", "fingerprint": "model:test", "dimensions": 384}
    assert bundle["settings"] == {"bm25": {"k1": settings.BM25_K1, "b": settings.BM25_B}, "rrf_k": settings.RRF_K,
                                  "fusion_depth": settings.FUSION_DEPTH, "recall_ks": list(settings.RECALL_KS),
                                  "dense_tolerance": COSINE_TOLERANCE}
    assert bundle["chunker"] == SETTING
    assert [c["text"] for c in bundle["chunks"]] == [c["text"] for c in chunks]
    assert set(bundle["chunks"][0]) == {"id", "hash", "text", "source", "page", "last_page", "headings", "vector"}
    assert np.array_equal(vectors_of(bundle, "chunks"), stand_in_embed([c["text"] for c in chunks]))
    assert np.array_equal(vectors_of(bundle, "questions"), stand_in_embed([q["question"] for q in questions()]))
    assert [q["id"] for q in bundle["questions"]] == [q["id"] for q in questions()]
    assert all(q["marks"] for q in bundle["questions"])


def test_importing_it_back_gives_the_same_and_embeds_nothing(node, bundle):
    found = imported(node, bundle)
    assert found["dropped"] == "" and found["toEmbed"] == []
    assert found["vectors"] == {c["hash"]: c["vector"] for c in bundle["chunks"]}
    assert found["questionVectors"] == {q["id"]: q["vector"] for q in bundle["questions"]}
    assert found["marks"] == {q["id"]: q["marks"] for q in bundle["questions"]}
    assert [c["text"] for c in found["chunks"]] == [c["text"] for c in bundle["chunks"]]
    # The import's vectors put in a store, then every chunk's vector asked for: none goes to the model.
    counted = node.run("""async (RAG, input) => {
      const found = await RAG.docs.importBundle(input.text, { fingerprint: "model:test" });
      const store = await RAG.docs.store.open({ fingerprint: "model:test" });  // Node: no IndexedDB, memory
      await store.put(found.chunks.map((c) => [c.text, found.vectors[c.hash]]));
      let sent = 0;
      const embed = async (texts) => { sent += texts.length; return texts.map(() => new Float32Array(384)); };
      const result = await RAG.docs.vectorsFor(found.chunks.map((c) => c.text), { store, embed });
      const more = await RAG.docs.vectorsFor(["a text the file did not hold", "a text the file did not hold"], { store, embed });
      return { sent, embedded: result.embedded, reused: result.reused, where: store.where, note: store.note, more: more.embedded };
    }""", {"text": json.dumps(bundle)})
    assert counted["sent"] == 1 and counted["embedded"] == 0 and counted["reused"] == len(bundle["chunks"])
    assert counted["more"] == 1, "a new text is embedded once, however often it is asked for"
    assert counted["where"] == "memory" and counted["note"].startswith("This browser offers no IndexedDB")


def test_one_from_another_model_keeps_its_chunks_and_marks_and_drops_its_vectors(node, bundle):
    found = imported(node, bundle, fingerprint="model:another")
    carried = len(bundle["chunks"]) + len(bundle["questions"])
    assert found["vectors"] == {} and found["questionVectors"] == {}
    assert found["dropped"] == (f"this file was made with another model (fingerprint model:test, 384 dimensions; this page's is "
                                f"model:another, 384): its {carried} vectors were dropped. Embed the chunks again to search them by meaning.")
    assert len(found["toEmbed"]) == len({c["text"] for c in bundle["chunks"]} | {q["text"] for q in bundle["questions"]})
    assert found["marks"] == {q["id"]: q["marks"] for q in bundle["questions"]}


def one_number_less(vector: str) -> str:
    return base64.b64encode(base64.b64decode(vector)[:-4]).decode()


def edited(bundle, change):
    copy_ = copy.deepcopy(bundle)
    change(copy_)
    return copy_


@pytest.mark.parametrize("change, message", [
    (lambda b: b["chunks"][2].update(vector=one_number_less(b["chunks"][2]["vector"])),
     "ImportError: chunks[2].vector holds 383 numbers, not 384 (edited by hand?)"),
    (lambda b: b["chunks"][3].update(text=b["chunks"][3]["text"] + " (edited)"),
     "ImportError: chunks[3].hash is not the SHA-256 of chunks[3].text: the text was changed after the export (edited by hand?)"),
    (lambda b: b.update(schema=2), "ImportError: this file has schema 2; this page reads schema 1. Export it again from this page"),
    (lambda b: b.update(kind="something else"), 'ImportError: this file is not an export of this page\'s documents (its kind is "something else"'),
    (lambda b: b["chunks"][0].pop("source"), "ImportError: chunks[0].source should be a string, not undefined"),
    (lambda b: b["questions"][1]["marks"].append("not-a-hash"), "ImportError: questions[1].marks["),
    (lambda b: b["chunks"][1].update(vector="***"), "ImportError: chunks[1].vector is not base64"),
    (lambda b: b["chunks"][4].update(id=b["chunks"][0]["id"]), 'ImportError: chunks[4].id: "c1" is there twice'),
    (lambda b: b.update(chunker={"chunker": "fixed", "size": 0, "overlap": 0}), "ImportError: chunker: fixed needs a whole size >= 1"),
])
def test_a_hand_edited_file_is_refused_naming_the_problem(node, bundle, change, message):
    found = imported(node, edited(bundle, change))
    assert found.get("error", "").startswith(message), found.get("error")


def test_a_damaged_file_is_refused(node, bundle):
    text = json.dumps(bundle)
    found = imported(node, text[: len(text) // 2])
    assert found["error"].startswith("ImportError: this file is not JSON (")
    assert found["error"].endswith("it is damaged, or not an export of this page")
