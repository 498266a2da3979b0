"""page.yaml (builder/page/page_config.py): the ids a corpus gives the page's figures, worked
examples and samples, checked against the corpus with problems that name the file, the line,
the field and the fix; and the defaults when a corpus has no page.yaml."""

from engine.citations import Claim
from support.paths import ROOT

from builder.site import load_site

GOOD = """strict: true
showcase: upload-4021
vocabulary_mismatch: g02
prompt_example: refund-new
stale_claim:
  text: Old refunds.
  source: refund-old
  quote: full refund
checker_limits:
  unit:
    text: Free plans accept 100 GB.
    source: err-4021
    quote: 100 MB
"""


def write(corpus, text: str) -> None:
    corpus.write_bytes("page.yaml", text.encode("utf-8"))


def test_without_page_yaml_the_showcase_is_the_first_tracer_and_nothing_is_strict(corpus):
    page = corpus.load().content.page
    assert (page.found, page.strict) == (False, False)
    assert page.showcase == page.score_scales == page.rrf_example == "upload-4021"
    assert (page.vocabulary_mismatch, page.two_passages, page.prompt_example, page.stale_claim) == (None,) * 4


def test_page_yaml_names_the_ids_and_claims_the_build_follows(corpus):
    write(corpus, GOOD)
    page = corpus.load().content.page
    assert (page.found, page.strict, page.showcase, page.vocabulary_mismatch, page.prompt_example) \
        == (True, True, "upload-4021", "g02", "refund-new")
    assert page.rrf_example == "upload-4021", "defaults to the showcase"
    assert page.stale_claim == Claim("Old refunds.", "refund-old", "full refund")
    assert page.checker_limits == {"unit": Claim("Free plans accept 100 GB.", "err-4021", "100 MB")}


def test_each_wrong_id_is_named_with_its_file_line_field_and_fix(corpus):
    write(corpus, GOOD.replace("showcase: upload-4021", "showcase: upload-9999")
          .replace("vocabulary_mismatch: g02", "vocabulary_mismatch: upload-4021")
          .replace("prompt_example: refund-new", "prompt_example: refund-nwe\ncolour: blue")
          .replace("  source: refund-old", "  source: refund-gone"))
    problems = {(p.file, p.line, p.id, p.field): (p.message, p.fix) for p in corpus.problems()}
    assert problems == {
        ("corpus/page.yaml", 1, None, "showcase"): (
            "no question 'upload-9999'",
            "name a golden question (its id: g, then its place in golden.yaml in two digits) or a tracer of tracers.yaml"),
        ("corpus/page.yaml", 1, None, "vocabulary_mismatch"): (  # a tracer is not a golden question
            "no golden question 'upload-4021'", "name a golden question (its id: g, then its place in golden.yaml in two digits)"),
        ("corpus/page.yaml", 1, None, "prompt_example"): ("no passage 'refund-nwe'", "name a passage id of the corpus"),
        ("corpus/page.yaml", 1, None, "colour"): (
            "is not a page field", "use only strict, showcase, score_scales, rrf_example, vocabulary_mismatch, "
                                   "two_passages, prompt_example, structured_reply, stale_claim, checker_limits"),
        ("corpus/page.yaml", 7, "stale_claim", "source"): ("no passage 'refund-gone'", "name a passage id of the corpus"),
    }


def test_a_claim_without_its_quote_and_a_strict_that_is_not_a_boolean_are_refused(corpus):
    write(corpus, "strict: maybe\ncheckers: 1\ncheckers_limits: x\nchecker_limits:\n  one:\n    text: T\n    source: err-4021\n")
    problems = [(p.line, p.id, p.field, p.message) for p in corpus.problems()]
    assert (1, None, "strict", "is 'maybe', not true or false") in problems
    assert (6, "checker_limits.one", "quote", "is missing or empty") in problems  # its fields start on line 6
    assert {field for _, _, field, message in problems if message == "is not a page field"} == {"checkers", "checkers_limits"}


def test_the_quillbox_page_yaml_is_strict_and_names_every_figures_question():
    page = load_site(ROOT / "corpus").content.page
    assert page.strict and page.found
    data = page.as_data()
    assert None not in data.values(), data
    assert set(page.checker_limits) == {"unit_wrong", "unit_converted", "paraphrase"} and page.stale_claim
