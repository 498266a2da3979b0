"""Assemble the page's data: everything the engine computed, as one schema-versioned dict.

The runtime in the browser and the templates read only this. SCHEMA changes whenever
its shape does; the runtime refuses data of another schema.
"""

from engine.access import post_filter, pre_filter
from engine.citations import Claim, check_citations
from engine.guardrail import HELP_CENTER_HOSTS, PATTERNS, check_output
from engine.prompt import RULES, Source, build_prompt
from engine.tokens import count_o200k

from builder.retrieval import HYBRID_DEPTH, RECALL_KS, RRF_K, Question, answer_ranks, recall_table

SCHEMA = 1


def questions_of(corpus) -> list[Question]:
    """Every question the build searches for: golden, tracer, chunking lab."""
    questions = [Question(g.id, g.question, "golden", g.answer_id, g.paraphrase) for g in corpus.golden]
    questions += [Question(t.id, t.question, "tracer", t.answer_id) for t in corpus.tracers]
    return questions


def passage_record(p) -> dict:
    return {"id": p.id, "text": p.text, "title": p.title, "section": p.section, "url": p.url,
            "updated": p.updated, "kind": p.kind, "acl": list(p.acl), "superseded": p.superseded,
            "document": p.document}


def tracer_record(tracer, runs: dict, sources: dict[str, str]) -> dict:
    claims = [Claim(c.text, c.source_id, c.quote) for c in tracer.claims]
    checks = check_citations(claims, sources)
    rerank = sorted(tracer.rerank.items(), key=lambda pair: -pair[1])
    return {
        "id": tracer.id, "question": tracer.question, "answer": tracer.answer_id,
        "rerank": [[pid, score] for pid, score in rerank],
        "answer_text": tracer.answer_text,
        "claims": [{"text": c.text, "source": c.source_id, "quote": c.quote, "ok": r.ok, "problems": r.problems}
                   for c, r in zip(tracer.claims, checks)],
        "guardrail": [str(f) for f in check_output(tracer.answer_text)],
    }


def permission_runs(corpus, runs: dict, ks=(3, 5, 8)) -> dict:
    """For each reader, tracer question and k: the pre- and post-filtered hybrid lists."""
    acl = {p.id: list(p.acl) for p in corpus.passages}
    result = {}
    for reader in corpus.readers:
        per_question = {}
        for tracer in corpus.tracers:
            ranked_ids = [pid for pid, _ in runs[tracer.id]["dense"]]
            per_question[tracer.id] = {str(k): {"pre": pre_filter(ranked_ids, acl, list(reader.groups), k),
                                                "post": post_filter(ranked_ids, acl, list(reader.groups), k)}
                                       for k in ks}
        result[reader.role] = {"label": reader.label, "groups": list(reader.groups), "runs": per_question}
    return result


PROMPT_SIZES = range(3, 11)


def source_of(p) -> Source:
    return Source(p.id, p.title, p.updated, p.text)


def prompt_tokens(corpus, questions, runs: dict) -> dict:
    """question id -> number of passages (3..10) -> o200k tokens of the whole prompt built
    from the hybrid list's top passages."""
    by_id = corpus.by_id
    return {q.id: {str(n): count_o200k(build_prompt(q.text, [source_of(by_id[pid]) for pid, _ in runs[q.id]["hybrid"][:n]]))
                   for n in PROMPT_SIZES}
            for q in questions}


def page_data(corpus, questions: list[Question], runs: dict, lab: list[dict], tokens: dict, model: dict) -> dict:
    golden = [q for q in questions if q.set == "golden"]
    ranks = answer_ranks(runs, golden)
    sources = {p.id: p.text for p in corpus.passages}
    return {
        "schema": SCHEMA,
        "model": model,
        "settings": {"rrf_k": RRF_K, "hybrid_depth": HYBRID_DEPTH, "recall_ks": list(RECALL_KS),
                     "bm25": {"k1": 1.2, "b": 0.75}},
        "passages": [passage_record(p) for p in corpus.passages],
        "questions": [{"id": q.id, "text": q.text, "set": q.set, "answer": q.answer_id, "paraphrase": q.paraphrase}
                      for q in questions],
        "runs": {qid: {name: [[pid, score] for pid, score in ranking] for name, ranking in run.items()}
                 for qid, run in runs.items()},
        "ranks": ranks,
        "recall": recall_table(ranks),
        "tracers": [tracer_record(t, runs, sources) for t in corpus.tracers],
        "chunking": {"title": corpus.chunking_lab.title, "markdown": corpus.chunking_lab.markdown,
                     "facts": corpus.chunking_lab.facts,
                     "questions": [{"id": q.id, "text": q.question} for q in corpus.chunking_lab.questions],
                     "settings": lab},
        "tokens": tokens,
        "prompt_tokens": prompt_tokens(corpus, questions, runs),
        "prompt": {"rules": [{"text": r.text, "reason": r.reason} for r in RULES]},
        "guardrail": {"patterns": PATTERNS, "hosts": list(HELP_CENTER_HOSTS)},
        "permissions": permission_runs(corpus, runs),
        "injection": {"question": corpus.injection.question, "note": corpus.injection.note,
                      "answers": {name: {"text": text, "guardrail": [str(f) for f in check_output(text)]}
                                  for name, text in (("ignored", corpus.injection.ignored),
                                                     ("obeyed", corpus.injection.obeyed))}},
        "glossary": [{"term": g.term, "slug": g.slug, "definition": g.definition, "aliases": list(g.aliases)}
                     for g in corpus.glossary],
        "quiz": [{"id": q.id, "section": q.section, "question": q.question, "choices": list(q.choices),
                  "answer": q.answer, "explanation": q.explanation} for q in corpus.quiz],
    }
