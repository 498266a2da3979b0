"""Every kind of mistake an author can make in the corpus, made once in a copy of the small
valid corpus (tests/corpus/fixtures/valid/), with where the loader must say the problem is.
tests/corpus/test_validation.py checks each through the loader, test_cli_bad_input.py through
the command line."""

from dataclasses import dataclass
from typing import Callable

import pytest

from engine.corpus import MAX_FILE_BYTES

OLD_REFUND_TEXT = ("Ask for a full refund within 30 days of your payment and we will return the whole "
                   "amount, no questions asked.")
STAFF_REFUND_TEXT = ("\nSupport agents may approve a refund after the 14 days once per customer when a "
                     "payment failed twice. Record the exception in the billing console.\n")



@dataclass
class Case:
    break_it: Callable  # (MiniCorpus) -> None: the one edit
    file: str           # where the problem must point, relative to the corpus's parent
    line: Callable      # (MiniCorpus) -> int | None, read from the edited file
    id: str | None
    field: str | None
    message: str        # a fragment of the problem's message
    alone: bool = True  # the only problem reported (no knock-on problems elsewhere)


def at(name, marker):
    return lambda corpus: corpus.line_of(name, marker)


def no_line(corpus):
    return None


def edit(name, old, new):
    return lambda corpus: corpus.edit(name, old, new)


def delete(name):
    return lambda corpus: corpus.path(name).unlink()


def write(name, data: bytes):
    return lambda corpus: corpus.write_bytes(name, data)


def replace_bytes(name, old: bytes, new: bytes):
    def apply(corpus):
        data = corpus.path(name).read_bytes()
        assert data.count(old) == 1
        corpus.write_bytes(name, data.replace(old, new))
    return apply


LAB_QUESTIONS_NOT_A_LIST = edit(
    "chunking-lab.md",
    "questions:\n  - id: q1\n    question: How long can a Business admin still recover a deleted note?\n",
    "questions: 5\n")

B = "corpus/help/billing.md"
CASES = {
    "duplicate id across two files": Case(
        edit("help/errors.md", "then try again.\n",
             "then try again.\n\n## refund-old | Old refunds\n\nA copy of the old refund page pasted here.\n"),
        "corpus/help/errors.md", at("help/errors.md", "## refund-old"), "refund-old", "id",
        "is used twice (first at corpus/help/billing.md:13)"),
    "missing title": pytest.param(Case(
        edit("help/errors.md", "title: Error codes\n", ""),
        "corpus/help/errors.md", lambda corpus: 2, None, "title", "is missing or empty",
        alone=False)),  # its passages are dropped, so references to them fail too
    "missing section": Case(
        edit("help/billing.md", "## refund-old | Refund policy (2024)", "## refund-old |"),
        B, at("help/billing.md", "## refund-old"), "refund-old", "section", "is empty"),
    "missing text": Case(
        edit("help/billing.md", STAFF_REFUND_TEXT, ""),
        B, at("help/billing.md", "## refund-staff"), "refund-staff", "text", "is empty"),
    "empty text": Case(
        edit("help/billing.md", OLD_REFUND_TEXT, "   \t  "),
        B, at("help/billing.md", "## refund-old"), "refund-old", "text", "is empty"),
    "heading without a '|'": Case(
        edit("help/billing.md", "## refund-old | Refund policy (2024)", "## refund-old Refund policy (2024)"),
        B, at("help/billing.md", "## refund-old"), None, None, "passage heading '## refund-old Refund policy (2024)' has no id"),
    "heading with an invalid id": Case(
        edit("help/billing.md", "## refund-old |", "## Refund_Old |"),
        B, at("help/billing.md", "## Refund_Old"), "Refund_Old", "id", "'Refund_Old' is not a valid id"),
    "unknown passage key": Case(
        edit("help/billing.md", "superseded: true\n", "superseded: true\nowner: billing-team\n"),
        B, at("help/billing.md", "owner:"), "refund-old", "owner", "is not a passage field"),
    "date not YYYY-MM-DD": Case(
        edit("help/billing.md", "updated: 2024-02-01", "updated: 2024-2-1"),
        B, at("help/billing.md", "updated: 2024-2-1"), "refund-old", "updated", "is '2024-2-1', not a date"),
    "impossible date": Case(
        edit("help/billing.md", "updated: 2024-02-01", "updated: 2026-02-30"),
        B, at("help/billing.md", "updated: 2026-02-30"), "refund-old", "updated", "'2026-02-30' is not a real date"),
    "unknown ACL group": Case(
        edit("help/billing.md", "acl: staff", "acl: staff, vip"),
        B, at("help/billing.md", "acl: staff, vip"), "refund-staff", "acl", "unknown group 'vip'"),
    "bad kind": Case(
        edit("help/billing.md", "kind: runbook", "kind: wiki"),
        B, at("help/billing.md", "kind: wiki"), "refund-staff", "kind", "is 'wiki'"),
    "javascript: URL": Case(
        edit("help/billing.md", "acl: staff\n", "acl: staff\nurl: javascript:alert(1)\n"),
        B, at("help/billing.md", "url: javascript"), "refund-staff", "url",
        "'javascript:alert(1)' is not an http(s) or relative URL"),
    "superseded not a boolean": Case(
        edit("help/billing.md", "superseded: true", "superseded: maybe"),
        B, at("help/billing.md", "superseded: maybe"), "refund-old", "superseded", "is 'maybe', not true or false"),
    "text over 256 wordpieces": Case(
        edit("help/billing.md", OLD_REFUND_TEXT, "note " * 300),
        # "note" is one wordpiece: 300 + [CLS] + [SEP] = 302 > 256
        B, at("help/billing.md", "## refund-old"), "refund-old", "text",
        f"is {300 + 2} wordpieces; the model reads only the first 256"),
    "golden answer that does not exist": Case(
        edit("golden.yaml", "answers: [refund-new]", "answers: [refund-nwe]"),
        "corpus/golden.yaml", at("golden.yaml", "How do I get my money back?"), "g02", "answers",
        "no passage 'refund-nwe'"),
    "rewrite answer that does not exist": Case(
        edit("rewrites.yaml", "answer: err-4021", "answer: err-402"),
        "corpus/rewrites.yaml", at("rewrites.yaml", "- id: follow-up"), "follow-up", "answer",
        "no passage 'err-402'"),
    "tracer claim source unknown": Case(
        edit("tracers.yaml", "source: err-4021", "source: err-4022"),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "source",
        "no passage 'err-4022'"),
    "tracer quote not in its source": Case(
        edit("tracers.yaml", "quote: 100 MB for Free", "quote: 100 MB on Free"),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "quote",
        "'100 MB on Free' is not in passage 'err-4021'"),
    "tracer claim in no sentence of its answer": Case(
        edit("tracers.yaml", "in_answer: 100 MB on Free", "in_answer: 100 MB on Team"),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "in_answer",
        "'100 MB on Team' is not in one sentence of the answer"),
    "tracer claim placed by its text, which is no words of its answer": Case(
        edit("tracers.yaml", "      in_answer: 100 MB on Free\n", ""),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "text",
        "'Free plans accept files up to 100 MB.' is not in one sentence of the answer"),
    "tracer claim in two sentences of its answer": Case(
        edit("tracers.yaml", "100 MB on Free.\n", "100 MB on Free. Again: 100 MB on Free.\n"),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "in_answer",
        "'100 MB on Free' is in sentences 1, 2 of the answer"),
    "rerank score out of range": Case(
        edit("tracers.yaml", "err-4021: 0.97", "err-4021: 1.5"),
        "corpus/tracers.yaml", at("tracers.yaml", "err-4021: 1.5"), "upload-4021", "rerank.err-4021",
        "score '1.5' is not in 0..1"),
    "chunking-lab fact not in the page": pytest.param(Case(
        edit("chunking-lab.md", "tempting: 30 days", "tempting: 45 days"),
        "corpus/chunking-lab.md", lambda corpus: 2, None, "facts.tempting",
        "phrase '45 days' is not in the page")),
    "chunking-lab question id": pytest.param(Case(
        edit("chunking-lab.md", "- id: q1", "- id: Q 1"),
        "corpus/chunking-lab.md", at("chunking-lab.md", "- id: Q 1"), "Q 1", "questions.id",
        "'Q 1' is not a valid id", alone=False)),  # then it has no questions either
    "quiz question with two right choices": Case(
        edit("quiz.yaml", "    - text: The two retrievers' ranks\n", "    - text: The two retrievers' ranks\n      right: true\n"),
        "corpus/quiz.yaml", at("quiz.yaml", "- id: quiz-hybrid"), "quiz-hybrid", "choices",
        "marks 2 choices right"),
    "invalid YAML": Case(
        edit("golden.yaml", "  answers: [err-4021]\n", "  answers: err-4021: oops\n"),
        "corpus/golden.yaml", at("golden.yaml", "err-4021: oops"), None, None,
        "is not valid YAML: mapping values are not allowed here", alone=False),
    "missing file": Case(
        delete("glossary.yaml"), "corpus/glossary.yaml", no_line, None, None, "file is missing"),
    "empty file": Case(
        write("quiz.yaml", b""), "corpus/quiz.yaml", no_line, None, None, "file is empty"),
    "blank file": Case(
        write("quiz.yaml", b"\n  \n\t\n"), "corpus/quiz.yaml", no_line, None, None, "file is empty"),
    "bytes that are not UTF-8": Case(
        replace_bytes("golden.yaml", b"my money back", b"my m\xf6ney back"),  # Latin-1 for 'ö'
        "corpus/golden.yaml", at("golden.yaml", "How do I get my m"), None, None,
        "is not UTF-8 (byte 0xf6"),
    "NUL byte": Case(
        replace_bytes("glossary.yaml", b"A keyword", b"A key\0word"),
        "corpus/glossary.yaml", at("glossary.yaml", "A key"), None, None, "contains a NUL character"),
    "file over 1 MB": Case(
        write("help/huge.md", b"x" * (MAX_FILE_BYTES + 1)),
        "corpus/help/huge.md", no_line, None, None, "file is 1,000,001 bytes, over the 1,000,000-byte limit"),
    "duplicate golden question": Case(
        # Compared case-insensitively; reported where the question first appears.
        edit("golden.yaml", "How do I get my money back?", "HOW BIG can an upload be on the Free plan?"),
        "corpus/golden.yaml", at("golden.yaml", "How big can"), "g01", "question",
        "'how big can an upload be on the free plan?' appears 2 times"),
}
