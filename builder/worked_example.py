"""The BM25 worked example: four tiny passages and a query from corpus/worked-example.yaml,
and every step of the arithmetic as data the page prints (IDF per term, the term-frequency
part per passage, the sums).

Example: worked_example(WorkedExample("qb", (("a", "qb 4021"), ("b", "files"))))["passages"][0]["score"]
         -> 0.6099... (IDF ln 2, of a term in one text of two, times the tf part 2.2 / 2.5)
"""

from dataclasses import dataclass
from pathlib import Path

from engine.bm25 import BM25, unique_terms
from engine.corpus_files import yaml_mapping
from engine.fields import required_str
from engine.problems import ProblemLog


@dataclass(frozen=True)
class WorkedExample:
    query: str
    passages: tuple[tuple[str, str], ...]  # (id, text)


def load_worked_example(path: Path, out: ProblemLog) -> WorkedExample | None:
    data = yaml_mapping(path, out, "query: and passages:")
    if data is None:
        return None
    query = required_str(data, "query", path, None, out)
    raw = data.get("passages")
    if not isinstance(raw, list) or len(raw) < 2:
        out.add(path, data["__line__"], None, "passages", "needs at least two passages", "list them with id: and text:")
        return None
    passages = []
    for record in raw:
        if not isinstance(record, dict):
            out.add(path, data["__line__"], None, "passages", "an entry is not id: and text:", "write each as - id: … text: …")
            continue
        pid = required_str(record, "id", path, None, out)
        passage_text = required_str(record, "text", path, pid, out)
        if pid and passage_text:
            passages.append((pid, passage_text))
    return WorkedExample(query, tuple(passages)) if query else None




def worked_example(example) -> dict:
    texts = [text for _, text in example.passages]
    index = BM25(texts)
    terms = unique_terms(example.query)
    scores = index.scores(example.query)
    return {
        "query": example.query,
        "terms": terms,
        "n": index.n_docs,
        "avg_len": index.avg_len,
        "k1": index.k1,
        "b": index.b,
        "idf": [{"term": t, "df": index.doc_freq(t), "idf": index.idf(t)} for t in terms],
        "passages": [
            {"id": pid, "text": text, "length": index.lengths[i], "score": scores[i],
             "terms": [{"term": c.term, "tf": c.tf, "tf_part": c.tf_part, "score": c.score}
                       for c in index.explain(example.query, i)]}
            for i, (pid, text) in enumerate(example.passages)],
    }
