"""The page's core data: what the engine computed for every question, as one schema-versioned
dict that the prose, the figures, the templates and the labs all read. Each lab adds its own
part under data["labs"] (site_src/labs/<name>/data.py), and the build's later stages add theirs
(builder/pipeline.py); the browser's runtime gets the parts it reads.

SCHEMA changes whenever the shape does; the runtime refuses data of another schema.

Example: page_data(…)["settings"]["rrf_k"] -> 60
"""

from engine import settings
from engine.citations import Claim, check_citations
from engine.guardrail import HELP_CENTER_HOSTS, PATTERNS, check_output
from engine.prompt import RULES, Source, build_prompt
from engine.tokens import count_o200k

from builder.search import Question

SCHEMA = 2


def questions_of(corpus) -> list[Question]:
    """Every question the build searches for: golden, then tracer, then those nothing answers."""
    questions = [Question(g.id, g.question, "golden", g.answers, g.group, g.reader) for g in corpus.golden]
    questions += [Question(t.id, t.question, "tracer", (t.answer_id,)) for t in corpus.tracers]
    questions += [Question(u.id, u.question, "unanswerable") for u in getattr(corpus, "unanswerable", ())]
    return questions


def question_record(q: Question, golden_by_id: dict) -> dict:
    """A question as the data carries it; `answer` is the first of its answers, the one the page
    names when it names one."""
    golden = golden_by_id.get(q.id)
    return {"id": q.id, "text": q.text, "set": q.set, "answer": q.answer_id, "answers": list(q.answers),
            "group": q.group, "paraphrase": q.paraphrase, "reader": q.reader,
            "partial": [{"id": p.id, "note": p.note} for p in golden.partial] if golden else []}


def passage_record(p) -> dict:
    return {"id": p.id, "text": p.text, "title": p.title, "section": p.section, "url": p.url,
            "updated": p.updated, "kind": p.kind, "acl": list(p.acl), "superseded": p.superseded,
            "document": p.document}


def source_of(p) -> Source:
    return Source(p.id, p.title, p.updated, p.text)


def tracer_record(tracer, runs: dict, by_id: dict) -> dict:
    """A tracer question with its illustrative answer; its claims checked against the whole help
    center ("ok", "problems") and against only the passages its prompt carries ("sent_problems"),
    each with the words of the answer that place it in its sentence ("in_answer")."""
    claims = [Claim(c.text, c.source_id, c.quote) for c in tracer.claims]
    checks = check_citations(claims, {pid: p.text for pid, p in by_id.items()})
    sent = [pid for pid, _ in runs[tracer.id]["hybrid"][:settings.PROMPT_PASSAGES]]
    sent_checks = check_citations(claims, {pid: by_id[pid].text for pid in sent})
    rerank = sorted(tracer.rerank.items(), key=lambda pair: -pair[1])
    return {
        "id": tracer.id, "question": tracer.question, "answer": tracer.answer_id,
        "rerank": [[pid, score] for pid, score in rerank],
        "answer_text": tracer.answer_text,
        "claims": [{"text": c.text, "source": c.source_id, "quote": c.quote, "in_answer": c.located_by,
                    "ok": r.ok, "problems": r.problems}
                   for c, r in zip(tracer.claims, checks)],
        "guardrail": [str(f) for f in check_output(tracer.answer_text)],
        "sent": sent,
        "sent_problems": [r.problems for r in sent_checks],
    }


def prompt_tokens(corpus, questions, runs: dict) -> dict:
    """question id -> number of passages (3..10) -> o200k tokens of the whole prompt built
    from the hybrid list's top passages."""
    by_id = corpus.by_id
    return {q.id: {str(n): count_o200k(build_prompt(q.text, [source_of(by_id[pid]) for pid, _ in runs[q.id]["hybrid"][:n]]))
                   for n in settings.PROMPT_SIZES}
            for q in questions}


def page_data(site, questions: list[Question], runs: dict, tokens: dict, model: dict, index) -> dict:
    """The core: passages, questions, their runs, tracers, tokens; `index` is the search stage's BM25."""
    corpus = site.corpus
    return {
        "schema": SCHEMA,
        "model": model,
        "settings": settings.as_data(),
        "passages": [passage_record(p) for p in corpus.passages],
        "questions": [question_record(q, {g.id: g for g in corpus.golden}) for q in questions],
        "runs": {qid: {name: [[pid, score] for pid, score in ranking] for name, ranking in run.items()}
                 for qid, run in runs.items()},
        "index": {"vocabulary": len(index.postings), "avg_len": index.avg_len},
        "tracers": [tracer_record(t, runs, corpus.by_id) for t in corpus.tracers],
        "tokens": tokens,
        "prompt_tokens": prompt_tokens(corpus, questions, runs),
        "prompt": {"rules": [{"text": r.text, "reason": r.reason} for r in RULES]},
        "guardrail": {"patterns": PATTERNS, "hosts": list(HELP_CENTER_HOSTS)},
        "glossary": [{"term": g.term, "slug": g.slug, "definition": g.definition, "aliases": list(g.aliases)}
                     for g in site.content.glossary],
    }
